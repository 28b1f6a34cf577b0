import { describe, expect, it } from "vitest";
import { sleep } from "../../../src/core/clock.js";
import { Harness } from "./support/harness.js";
import { limitNextPlacement } from "./support/rate-limited.js";

/**
 * A placement answered 429 goes back into the queue (it did not take effect) and is queued again in
 * the store. If the queue then drops it unsent (shed under the blocked budget, a kill-switch
 * cancel-all), its outcome is the 429: the order ends `rejected`, the journal and metrics see one
 * answered placement (not an unsent drop), and the level is quoted again.
 */
describe("engine: a re-queued 429 placement that the queue then drops", () => {
  it("ends rejected when shed, and its level is quoted again", async () => {
    const h = new Harness();
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);

    // The next placement is answered 429 with Retry-After 2 s (the budget blocks past the shed horizon),
    // while the cancels of the old quotes are still unanswered: they may rest yet, so the requote is
    // still a calm one (once a cancel is done, its level's placement is ranked as a missing quote).
    const limited = limitNextPlacement(h, 2_000);
    const cancel = h.exchange.cancel.bind(h.exchange);
    h.exchange.cancel = async (orderId) => {
      await sleep(h.clock, 500);
      return cancel(orderId);
    };
    h.crowdQuote(yes, "0.49", "0.53"); // mid 0.50 → 0.51: a one-tick (calm) requote of both levels
    await h.run();
    const coid = limited();
    expectOneRejectedAnswer(h, coid);
    expect(h.engine.liveOrders().some((o) => o.clientOrderId === coid)).toBe(false);

    // Long after the Retry-After, the market moves again: the bot has a bid again.
    await h.run(10_000);
    h.crowdQuote(yes, "0.50", "0.54");
    await h.run(10_000);
    expect(h.engine.liveOrders().filter((o) => o.state === "placing")).toEqual([]);
    expect(h.botQuotes(yes).filter((q) => q.startsWith("buy"))).toEqual(["buy 0.49 10"]);
  });

  it("ends rejected when a kill-switch cancel-all drops it, and the level is quoted after the unfreeze", async () => {
    const h = new Harness();
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    const limited = limitNextPlacement(h, 200); // short Retry-After: the re-queued placement is not shed
    h.crowdQuote(yes, "0.49", "0.53");
    await h.run();
    const coid = limited();
    expect(h.engine.liveOrders().find((o) => o.clientOrderId === coid)?.state).toBe("placing");
    // While it waits in the queue, the platform freezes (wallet-wide cancel-all), then unfreezes.
    h.engine.onPlatformStatus(true);
    await h.run(1_000);
    expectOneRejectedAnswer(h, coid);
    h.engine.onPlatformStatus(false);
    await h.run(10_000);
    h.crowdQuote(yes, "0.50", "0.54");
    await h.run(10_000);
    expect(h.engine.liveOrders().filter((o) => o.state === "placing")).toEqual([]);
    expect(h.botQuotes(yes).filter((q) => q.startsWith("buy"))).toHaveLength(1);
  });
});

/** Exactly one answer for the placement, the 429; no "never sent" drop for it. */
function expectOneRejectedAnswer(h: Harness, coid: string): void {
  const answers = h.eventsOf("place_outcome").filter((e) => e.intent.clientOrderId === coid);
  expect(answers.map((e) => [e.outcome, e.code])).toEqual([["rejected", "rate_limited"]]);
  expect(h.eventsOf("place_dropped").filter((e) => e.intent.clientOrderId === coid)).toEqual([]);
  expect(h.eventsOf("place_sent").filter((e) => e.clientOrderId === coid)).toHaveLength(1);
}

/**
 * While it waits, the re-queued placement is queued again in the store (not `placing` as sent): what
 * the engine decides meanwhile replaces it (the market moved) or withdraws it (a gate), so the old
 * request never goes out when the Retry-After ends.
 */
describe("engine: a re-queued 429 placement and the engine's newer decision", () => {
  it("is not sent at its old price once the market has moved through it (no taker fill)", async () => {
    const h = new Harness();
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);

    const limited = limitNextPlacement(h, 2_000);
    h.crowdQuote(yes, "0.52", "0.56"); // mid 0.54: bid 0.47 → 0.51 (4 ticks, not a calm requote)
    await h.run();
    const coid = limited();
    expect(coid).toContain("-b0-"); // the bid 0.51 was answered 429 and waits 2 s in the queue
    h.crowdQuote(yes, "0.30", "0.34"); // the market falls: the strategy now wants a bid at 0.29
    await h.run(100);
    expect(h.fills).toEqual([]);

    await h.run(5_000); // the Retry-After ends
    // Today the bid 0.51 leaves at +2 s, through the crowd's ask 0.34, and buys 10 as a taker.
    expect(h.fills.map((f) => `${f.side} ${f.priceMicro} ${f.sizeMicro}`)).toEqual([]);
    const sent = h.eventsOf("place_sent").filter((e) => e.clientOrderId === coid);
    expect(sent).toHaveLength(1); // only its first send, before the market fell
  });

  it("is not sent while its token is gated (book resyncing)", async () => {
    const h = new Harness();
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    const limited = limitNextPlacement(h, 2_000);
    h.crowdQuote(yes, "0.52", "0.56");
    await h.run();
    const coid = limited();
    // The book gaps and stays resyncing: the token is gated, its quotes are to be cancelled.
    h.holdSnapshots = true;
    h.tracker.onEvent({ type: "book_delta", tokenId: yes, seq: 10_000, prevSeq: 9_999, changes: [] });
    await h.run(100);
    expect(h.logs.records().some((r) => r.msg === "risk: book_resyncing" && r.tokenId === yes)).toBe(true);
    const from = h.clock.now();
    await h.run(5_000);
    const sentWhileGated = h.eventsOf("place_sent").filter((e) => e.atMs >= from);
    // Today the 429'd bid (sent state in the store, so cancelAllFor skips it) leaves at +2 s.
    expect(sentWhileGated.map((e) => e.clientOrderId)).toEqual([]);
    expect(h.botQuotes(yes)).toEqual([]);
    expect(coid).toContain("-b0-");
  });
});
