import { describe, expect, it } from "vitest";
import { TokenBucket } from "../../../src/execution/token-bucket.js";

/*
 * TokenBucket.observe dates the server's window from the answered request's SEND, not from the
 * answer's arrival: the server computed X-RateLimit-Reset when it counted the request, which may be a
 * whole response time before the answer arrives. Dated from the arrival, a slow answer (here 200 ms)
 * put the window's start up to (latency - margin) too late, and our own sends at the start of the
 * server's window were charged as foreign use until its reset: place tokens withheld after the
 * server had refilled, and mm_queue_foreign_tokens_total reporting another process on the wallet that
 * does not exist. The mock rounds the reset up to whole seconds, min 1, so a 1 s bucket's answer to a
 * request counted in the last (latency - margin) ms of its window did this. An answer slower than the
 * send log reaches back (about one hold) charges nothing at all.
 */

const place = () => new TokenBucket({ limit: 50, windowMs: 1_000, marginMs: 50 });

describe("TokenBucket.observe: a slow answer", () => {
  it("does not charge our own sends of the server's current window as foreign use", () => {
    const b = place();
    // The server's fixed window [1000, 2000): a requote burst of 20 placements at its start.
    for (let i = 0; i < 20; i++) b.take(1_000 + i * 5);
    // One more sent at 1940, counted by the server at 1945 (10 ms left in its window: reset "1"),
    // answered 200 ms later, at 2145.
    b.take(1_940);
    const now = 2_145;
    const charged = b.observe(
      { limit: 50, remaining: 29, resetAt: now + 1_000, observedAt: now },
      1_940,
      now,
    );
    expect(charged).toBe(0); // every one of the 21 the server counted is ours
    // The server's next window [2000, 3000) is empty: only the answered send is still ours to hold.
    expect(b.available(now)).toBe(49);
  });

  it("a 60 s bucket: a slow order-read answer does not charge the window's first reads", () => {
    const b = new TokenBucket({ limit: 600, windowMs: 60_000, marginMs: 50, burst: 100 });
    // The server's window [0, 60 000): a reconcile's 50 reads in its first 250 ms.
    for (let i = 0; i < 50; i++) b.take(i * 5);
    b.take(59_990); // counted at 59 995 (reset "1"), answered at 60 400
    const now = 60_400;
    const charged = b.observe(
      { limit: 600, remaining: 549, resetAt: now + 1_000, observedAt: now },
      59_990,
      now,
    );
    expect(charged).toBe(0);
  });
});

describe("TokenBucket.observe: an answer slower than the send log keeps", () => {
  // The log forgets sends older than two holds (prune, run by every reserve). For a 1 s bucket an
  // answer later than ~1 hold (the transport's timeout is 10 s) would be compared with a log that no
  // longer holds the sends the server counted with it, and our own burst would be charged as foreign
  // use until the reset (mm_queue_foreign_tokens_total reporting a process that does not exist).
  it("charges nothing: our own burst is not foreign use", () => {
    const b = place();
    for (let i = 0; i < 30; i++) b.take(0); // a requote's burst; the first is the slow one
    b.take(2_500); // the queue sends on meanwhile (reserve prunes the log)
    // The first placement's answer arrives 3.2 s late: the server had counted our 30 (reset "1").
    const charged = b.observe({ limit: 50, remaining: 20, resetAt: 4_200, observedAt: 3_200 }, 0, 3_200);
    expect(charged).toBe(0);
    expect(b.available(3_200)).toBe(49);
  });

  it("still charges what the log can tell is foreign in an answer it covers", () => {
    const b = place();
    for (let i = 0; i < 30; i++) b.take(0);
    b.take(2_500);
    // Answered 100 ms after its send: the server counted 40 where we sent one in its window.
    const charged = b.observe({ limit: 50, remaining: 10, resetAt: 3_600, observedAt: 2_600 }, 2_500, 2_600);
    expect(charged).toBe(39);
  });
});
