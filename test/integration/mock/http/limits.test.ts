import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MockHarness, WALLET } from "./harness.js";

/**
 * The spec's Limits: fixed windows per (endpoint, ip) and (endpoint, wallet), wallet limits scaled
 * by rateLimitPerMin, headers for the tightest bucket, 429 with Retry-After and the nested
 * `rate_limited` envelope. A SimClock keeps every window deterministic.
 */

let h: MockHarness;
beforeAll(async () => {
  h = await MockHarness.start();
});
afterAll(() => h.close());
// Every test starts at the beginning of fresh 1 s and 60 s windows.
beforeEach(() => {
  const now = h.clock.now();
  h.clock.advanceTo(now - (now % 60_000) + 120_000);
});

const wallet = (i: number) => `0x${(0xabc000 + i).toString(16).padStart(40, "0")}`;

describe("rate limits", () => {
  it("the wallet's 51st placement within a second is 429: Retry-After, nested rate_limited, X-Trace-Id = trace_id", async () => {
    const bodies = [];
    for (let i = 0; i < 51; i++)
      bodies.push(await h.order(WALLET.mm, "ARG-WIN", { side: "buy", price: "0.01", quantity: "1" }));
    for (const [i, body] of bodies.slice(0, 50).entries()) {
      const res = await h.fetch("/api/orders/place", { key: h.keys.trader, body });
      expect(res.status).toBe(201);
      expect(res.headers.get("x-ratelimit-remaining")).toBe(String(49 - i));
    }
    const res = await h.fetch("/api/orders/place", { key: h.keys.trader, body: bodies[50] });
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("1");
    expect(res.headers.get("x-ratelimit-limit")).toBe("50");
    expect(res.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(res.headers.get("x-ratelimit-reset")).toBe("1");
    expect(res.body).toEqual({
      status: 429,
      error: { code: "rate_limited", message: expect.any(String), trace_id: expect.any(String) },
    });
    expect(res.headers.get("x-trace-id")).toBe((res.body.error as { trace_id: string }).trace_id);
    // The refused request consumed nothing; the next window accepts it, and the client reads the wait.
    const out = await h.client().orders.place(bodies[50] as NonNullable<(typeof bodies)[50]>);
    expect(out.kind === "rejected" && [out.code, out.retryable, out.error.retryAfterMs]).toEqual([
      "rate_limited",
      true,
      1000,
    ]);
    h.clock.advanceBy(1_000);
    expect((await h.client().orders.place(bodies[50] as NonNullable<(typeof bodies)[50]>)).kind).toBe(
      "accepted",
    );
  });

  it("wallet limits scale by rateLimitPerMin: the multi-entity partner (1200) gets 100 placements/s and 1200 order reads/min", async () => {
    const fresh = wallet(1);
    const place = () => h.fetch("/api/orders/place", { key: h.keys.multiEntity, wallet: fresh, body: {} });
    const first = await place();
    expect(first.headers.get("x-ratelimit-limit")).toBe("100");
    for (let i = 1; i < 100; i++) expect((await place()).status).not.toBe(429);
    expect((await place()).status).toBe(429);
    const reads = await h.fetch("/api/orders/open", { key: h.keys.multiEntity, wallet: fresh });
    expect(reads.headers.get("x-ratelimit-limit")).toBe("1200");
    const baseline = await h.fetch("/api/orders/open", { key: h.keys.multiKyc, wallet: WALLET.kyc });
    expect(baseline.headers.get("x-ratelimit-limit")).toBe("600");
  });

  it("IP limits are not scaled: GET /api/markets is 600/min per IP whoever asks", async () => {
    for (const key of [undefined, h.keys.multiEntity]) {
      const res = await h.fetch("/api/markets", key === undefined ? {} : { key });
      expect(res.headers.get("x-ratelimit-limit")).toBe("600");
    }
  });

  it("headers show the tightest bucket: the wallet's until the IP's is nearer exhaustion; then the IP's 429", async () => {
    const ip = "10.40.0.7";
    const hit = (i: number) =>
      h.fetch("/api/orders/place", {
        key: h.keys.multiKyc,
        wallet: wallet(100 + (i % 25)),
        xff: ip,
        body: {},
      });
    const early = await hit(0);
    expect([early.headers.get("x-ratelimit-limit"), early.headers.get("x-ratelimit-remaining")]).toEqual([
      "50",
      "49",
    ]);
    for (let batch = 1; batch < 990; batch += 50) {
      await Promise.all(Array.from({ length: Math.min(50, 990 - batch) }, (_, k) => hit(batch + k)));
    }
    const late = await h.fetch("/api/orders/place", {
      key: h.keys.multiKyc,
      wallet: wallet(999),
      xff: ip,
      body: {},
    });
    expect([late.headers.get("x-ratelimit-limit"), late.headers.get("x-ratelimit-remaining")]).toEqual([
      "1000",
      "9",
    ]);
    for (let i = 0; i < 9; i++)
      await h.fetch("/api/orders/place", {
        key: h.keys.multiKyc,
        wallet: wallet(998 - i),
        xff: ip,
        body: {},
      });
    h.clock.advanceBy(5_000);
    const refused = await h.fetch("/api/orders/place", {
      key: h.keys.multiKyc,
      wallet: wallet(500),
      xff: ip,
      body: {},
    });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("55");
    expect((refused.body.error as { code: string }).code).toBe("rate_limited");
    const otherIp = await h.fetch("/api/orders/place", {
      key: h.keys.multiKyc,
      wallet: wallet(500),
      xff: "10.40.0.8",
      body: {},
    });
    expect(otherIp.status).not.toBe(429);
  });
});
