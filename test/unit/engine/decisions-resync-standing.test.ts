import { describe, expect, it } from "vitest";
import { Harness } from "./support/harness.js";

/**
 * A /ws/market reconnect is told as one episode (ResyncGroup): one `books resyncing` warn, one
 * `books recovered` info. A token that held a risk limit before it (reduce-only at the soft cap)
 * holds the same limit after its book is back: that is not news, and with many tokens near their
 * caps, one line per token per reconnect would be the flood the group removed. Metrics (the
 * listener) still receive every decision.
 */
describe("standing limits across a grouped resync", () => {
  /** Info-and-above lines, counted per message. */
  const counts = (h: Harness, from: number): Record<string, number> => {
    const out: Record<string, number> = {};
    for (const r of h.logs.records().slice(from)) {
      if (Number(r.level) < 30) continue;
      const msg = String(r.msg);
      out[msg] = (out[msg] ?? 0) + 1;
    }
    return out;
  };

  /** Three markets; the bot bought 10 shares of every token: each is at its soft cap (5). */
  async function atSoftCap(): Promise<Harness> {
    const h = new Harness({ markets: 3, risk: { inventory: { perMarket: { soft: "5", hard: "2000" } } } });
    for (let i = 1; i <= 3; i++) for (const t of h.tokens(i)) h.crowdQuote(t, "0.48", "0.52");
    await h.engine.start();
    await h.run(100);
    for (const i of [1, 2, 3]) {
      // Through the crowd's 100 at 0.48 into the bot's 10 at 0.47, on both tokens of the market at
      // once: once one is long 10, the market is at its soft cap and the other bids no more.
      for (const t of h.tokens(i)) h.take(t, "sell", "0.47", "110");
      await h.run(100);
      for (const t of h.tokens(i)) h.crowdQuote(t, "0.48", "0.52");
      await h.run(100);
    }
    await h.run(1_000);
    return h;
  }

  it("a reconnect of six tokens at reduce-only is two lines, not one more per token", async () => {
    const h = await atSoftCap();
    // Every token (long 10) may only sell: its bid is dropped, logged once.
    const all = [1, 2, 3].flatMap((i) => h.tokens(i));
    const limits = h.logs
      .records()
      .filter((r) => Number(r.level) >= 30 && r.msg === "risk: soft_cap_reduce_only");
    expect(limits.map((r) => [r.tokenId, r.side])).toEqual(all.map((t) => [t, "buy"]));
    for (const t of all) expect(h.botQuotes(t)).toEqual(["sell 0.53 10"]);
    const from = h.logs.records().length;
    const decisionsBefore = h.eventsOf("decision").length;

    // The link drops (MarketDataFeed: every book waits for the resubscribe's snapshot), comes back.
    for (const t of all) h.tracker.expectSnapshot(t);
    await h.run(12_000);
    for (const t of all) expect(h.tracker.state(t)?.status).toBe("synced");

    expect(counts(h, from)).toEqual({
      "books resyncing: 6 book(s) at once (resubscribed), not quoted until each is synced again": 1,
      ...recovered(h, from),
    });
    // Quoting resumed with the same limits, and metrics saw them again.
    for (const t of all) expect(h.botQuotes(t)).toEqual(["sell 0.53 10"]);
    const after = h.eventsOf("decision").slice(decisionsBefore);
    // (The book gate reaches it twice per token: its event, and the quoting step it holds.)
    const gates = after.filter((e) => e.decision.reason === "book_resyncing");
    expect(new Set(gates.map((e) => e.decision.tokenId))).toEqual(new Set(all));
    expect(after.filter((e) => e.decision.reason === "soft_cap_reduce_only").length).toBeGreaterThanOrEqual(
      6,
    );

    // A second reconnect: the same again, and the limits still stand quietly.
    const from2 = h.logs.records().length;
    for (const t of all) h.tracker.expectSnapshot(t);
    await h.run(12_000);
    expect(Object.keys(counts(h, from2)).filter((m) => m.startsWith("risk: "))).toEqual([]);
  });
});

/** The one `books recovered` line after `from`, keyed by its message (its duration varies). */
function recovered(h: Harness, from: number): Record<string, number> {
  const lines = h.logs
    .records()
    .slice(from)
    .filter((r) => String(r.msg).startsWith("books recovered"));
  return Object.fromEntries(lines.map((r) => [String(r.msg), 1]));
}
