import { describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import type { RecordedFrame } from "../../../src/recorded/format.js";
import { settle, until } from "../gateway/harness.js";
import type { RawServer } from "../gateway/raw-server.js";
import { count, delta, dropServer, print, recordings, TOKEN } from "./drop-server.js";
import { readAll } from "./record-io.js";

/*
 * s22 recwatch: `mm record` marked the trade prints lost to a reconnect (prints_missed), but not
 * those lost while the server had dropped the token_trade_matches subscription on a live socket,
 * until the periodic list_subscriptions check found it and subscribed again; nor those of a
 * subscribe refused with a retryable code until a retry was accepted. A replay read both stretches
 * as a market without trades. Both are marked now (via "dropped" / "refused"). And the pushes of a
 * subscription we no longer hold (a sid whose unsubscribe went unanswered, an id not wanted) were
 * written into the recording before the client dropped them: they are left out now (summary
 * `strays`). A scripted server on 127.0.0.1, the recorder on a SimClock.
 */

const start = recordings();

const CHECK = { advanceMs: 250 } as const;
const frames = (recs: RecordedFrame[]) => recs.map((r) => r.frame);
const trades = (recs: RecordedFrame[]) =>
  frames(recs)
    .filter((f) => f.type === "trade_matched")
    .map((f) => `${String(f.sid)}:${(f.data as { tradeId: string }).tradeId}`);

/**
 * Runs until the server dropped sid 1 and the recorder subscribed afresh (sid 2), then pushes
 * `then` (a print of the new sid): the times.
 */
async function dropFound(
  s: ReturnType<typeof dropServer>,
  clock: SimClock,
  conn: () => RawServer["conns"][number],
  how: "drop" | "ghost",
  then: unknown = print(2, "after"),
) {
  // The first check lists the sid: held then.
  await until(() => count(s.at, "list_subscriptions") === 1, "the first check", { clock, ...CHECK });
  await settle(30);
  const check1 = s.at.list_subscriptions?.[0] ?? 0;
  clock.advanceBy(2_000);
  s[how](1);
  const dropAt = clock.now();
  // Dropped: the second check finds it. Ghost: its unsubscribe times out (10 s) first.
  await until(() => count(s.at, "subscribe") === 2, "the repair", { clock, ...CHECK, timeoutMs: 10_000 });
  await settle(50);
  conn().send(then);
  await settle(50);
  return { check1, dropAt, resubAt: s.at.subscribe?.[1] ?? 0 };
}

describe("mm record: a subscription the server dropped on a live socket", () => {
  it("marks the token's prints missed from the last check that listed it to the resubscribe", async () => {
    const clock = new SimClock(1_750_000_000_000);
    const s = dropServer(clock);
    const { abort, run, conn } = await start(clock, s, ["token_trade_matches"]);
    conn().send(print(1, "before"));
    await settle(30);
    const t = await dropFound(s, clock, conn, "drop");
    abort.abort();
    const summary = await run;
    const recs = await readAll(summary.files);
    expect(summary.reconnects).toBe(0);
    expect(summary.printsMissed).toBe(1);
    const marks = recs.filter((r) => r.frame.type === "prints_missed");
    expect(marks).toHaveLength(1);
    const mark = marks[0] as RecordedFrame;
    expect(mark.frame).toMatchObject({
      sid: "gap",
      channel: "token_trade_matches",
      id: TOKEN,
      via: "dropped",
    });
    const d = mark.frame.data as { tokenId: string; fromMs: number; toMs: number };
    expect(d.tokenId).toBe(TOKEN);
    // From the first check's reply (not the subscribe's, nor the print before it), before the drop.
    expect(d.fromMs).toBeGreaterThanOrEqual(t.check1);
    expect(d.fromMs).toBeLessThan(t.dropAt);
    // To the resubscribe's reply.
    expect(d.toMs).toBeGreaterThanOrEqual(t.resubAt);
    expect(d.toMs).toBeLessThanOrEqual(mark.recvTs);
    // Between the prints of the old sid and the new one.
    expect(frames(recs).map((f) => f.type)).toEqual(["trade_matched", "prints_missed", "trade_matched"]);
    expect(trades(recs)).toEqual(["1:before", "2:after"]);
    expect(summary.strays).toBe(0);
  }, 20_000);

  it("leaves out the pushes of a sid it no longer holds and of ids it does not want, never one it holds", async () => {
    const clock = new SimClock(1_750_000_000_000);
    const s = dropServer(clock);
    const { abort, run, conn } = await start(clock, s, ["token_trade_matches"]);
    conn().send(print(1, "before"));
    // The server left sid 1 out of its list but still holds it: the unsubscribe goes unanswered.
    const t = await dropFound(s, clock, conn, "ghost");
    conn().send(print(1, "ghost")); // the old sid, still pushing: a stray
    conn().send(print(2, "unwanted", "999")); // an id never subscribed
    conn().send(print(2, "held"));
    await settle(100);
    abort.abort();
    const summary = await run;
    const recs = await readAll(summary.files);
    expect(trades(recs)).toEqual(["1:before", "2:after", "2:held"]);
    expect(summary.strays).toBe(2);
    expect(summary.malformed).toBe(0);
    const mark = recs.find((r) => r.frame.type === "prints_missed")?.frame;
    expect(mark).toMatchObject({ via: "dropped", data: { tokenId: TOKEN } });
    expect((mark?.data as { toMs?: number } | undefined)?.toMs).toBeGreaterThanOrEqual(t.resubAt);
  }, 30_000);

  it("marks the prints of a subscribe refused with a retryable code, from the refusal to the accepting retry", async () => {
    const clock = new SimClock(1_750_000_000_000);
    const s = dropServer(clock);
    s.state.refuse = 1;
    const { abort, run, conn } = await start(clock, s, ["token_trade_matches"], "the refused subscribe");
    await until(() => count(s.at, "subscribe") === 2, "the retry", { clock, advanceMs: 100 });
    await settle(50);
    const [refusedAt = 0, acceptedAt = 0] = s.at.subscribe ?? [];
    expect(acceptedAt).toBeGreaterThan(refusedAt);
    conn().send(print(1, "after"));
    await settle(50);
    abort.abort();
    const summary = await run;
    const recs = await readAll(summary.files);
    expect(summary.printsMissed).toBe(1);
    expect(summary.rejected).toMatchObject([{ channel: "token_trade_matches", code: "internal_error" }]);
    const mark = recs.find((r) => r.frame.type === "prints_missed");
    expect(mark?.frame).toMatchObject({ sid: "gap", id: TOKEN, via: "refused" });
    const d = mark?.frame.data as { fromMs: number; toMs: number };
    expect(d.fromMs).toBeGreaterThanOrEqual(refusedAt);
    expect(d.fromMs).toBeLessThan(acceptedAt);
    expect(d.toMs).toBeGreaterThanOrEqual(acceptedAt);
    expect(frames(recs).map((f) => f.type)).toEqual(["prints_missed", "trade_matched"]);
  }, 20_000);

  it("records the snapshot that follows a dropped book's resubscribe: no delta is replayed across the gap", async () => {
    const clock = new SimClock(1_750_000_000_000);
    const s = dropServer(clock);
    s.state.bookSeq = 5;
    const { abort, run, conn } = await start(clock, s, ["token_book"]);
    conn().send(delta(1, 6));
    conn().send(delta(1, 7));
    await settle(30);
    // The book moves on at the exchange while nothing reaches the recorder: seq 8 to 12 unseen.
    s.state.bookSeq = 12;
    const t = await dropFound(s, clock, conn, "drop", delta(2, 13));
    abort.abort();
    const summary = await run;
    const recs = await readAll(summary.files);
    const book = recs.filter((r) => r.frame.channel === "token_book");
    expect(
      book.map((r) => `${r.frame.type}:${String(r.frame.sid)}:${(r.frame.data as { seq: number }).seq}`),
    ).toEqual([
      "book_snapshot:1:5",
      "book_delta:1:6",
      "book_delta:1:7",
      "book_snapshot:2:12",
      "book_delta:2:13",
    ]);
    expect(book[3]?.recvTs).toBeGreaterThanOrEqual(t.resubAt);
    expect(summary.printsMissed).toBe(0); // no prints recorded: nothing to mark
    expect(summary.strays).toBe(0);
  }, 20_000);
});
