import { describe, expect, it } from "vitest";
import { Harness } from "./support/harness.js";

/**
 * A–S with a fixed σ and horizon, wide enough to rest behind a 0.48 / 0.52 crowd:
 * γσ²τ = 2 × 0.002² × 3600 = 0.0288, δ = 0.0288 + ln(1.1) = 0.1241.
 * Flat: bid ⌊0.5 − 0.062⌋ = 0.43, ask ⌈0.562⌉ = 0.57. Long one lot (10 shares, q = 1): r = 0.4712,
 * bid ⌊0.4092⌋ = 0.4, ask ⌈0.5332⌉ = 0.54.
 */
const AS = {
  name: "avellaneda-stoikov",
  params: { gamma: 2, k: 20, orderSize: "10", sigma: 0.002, horizonSeconds: 3600 },
};

describe("engine fills: inventory, skew, caps, idempotence, backfill", () => {
  it("a fill moves inventory and skews Avellaneda–Stoikov quotes down after buying", async () => {
    const h = new Harness({ strategy: AS });
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.43 10", "sell 0.57 10"]);
    h.take(yes, "sell", "0.43", "110"); // 100 from the crowd's bid, then our 10 at 0.43
    h.crowdQuote(yes, "0.48", "0.52"); // the crowd restores its bid: the mid is 0.50 again
    await h.run();
    expect(h.engine.positionOf(yes)).toBe(10_000_000n);
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.4 10", "sell 0.54 10"]);
    const fill = h.eventsOf("fill")[0];
    expect(fill).toMatchObject({ source: "stream", positionMicro: 10_000_000n });
    expect(fill?.fill).toMatchObject({ side: "buy", priceMicro: 430_000, sizeMicro: 10_000_000n });
  });

  it("applies a fill once however often it is delivered, and a reconcile does not count it again", async () => {
    const h = new Harness();
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    h.take(yes, "buy", "0.53", "105"); // 100 from the crowd, 5 from our ask at 0.53
    await h.run();
    const [f] = h.fills;
    if (f === undefined) throw new Error("no fill");
    h.engine.onFill(f);
    h.engine.onFill({ ...f });
    await h.engine.reconcileNow();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.run();
    expect(h.engine.positionOf(yes)).toBe(-5_000_000n);
    expect(h.eventsOf("fill")).toHaveLength(1);
    expect(h.engine.status().pnlMicro).toBe(150_000n); // sold 5 at 0.53, marked at the 0.50 mid
  });

  it("backfills a fill the stream lost, on the reconcile that follows a reconnect", async () => {
    const h = new Harness();
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    h.dropFills = true;
    h.take(yes, "sell", "0.47", "104"); // our bid at 0.47 sells us 4
    await h.run();
    expect(h.engine.positionOf(yes)).toBe(0n);
    h.dropFills = false;
    h.engine.onReconnect();
    await h.run(1_000);
    expect(h.engine.positionOf(yes)).toBe(4_000_000n);
    expect(h.eventsOf("fill").map((e) => e.source)).toEqual(["backfill"]);
    expect(h.eventsOf("reconcile").at(-1)?.summary).toMatchObject({ reason: "reconnect", backfilled: 1 });
  });

  it("risk caps band the sizes: past the soft cap quoting turns reduce-only, logged once", async () => {
    const risk = {
      inventory: { perMarket: { soft: "10", hard: "40" }, total: { soft: "100", hard: "200" } },
    };
    const h = new Harness({ risk });
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    h.take(yes, "sell", "0.47", "110"); // we buy 10: market gross 10 = soft
    h.crowdQuote(yes, "0.48", "0.52");
    await h.run();
    h.crowdQuote(yes, "0.48", "0.53"); // more book updates: the decision holds, the log does not repeat
    // The ask's replacement waits for its cancel and a reconcile's trade read (the old ask may have
    // filled before the cancel: order-store-cancelled.ts).
    await h.run(1_000);
    expect(h.engine.positionOf(yes)).toBe(10_000_000n);
    expect(h.botQuotes(yes)).toEqual(["sell 0.54 10"]);
    const logged = h.logs.records().filter((r) => r.msg === "risk: soft_cap_reduce_only");
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ action: "drop", side: "buy", tokenId: yes });
    expect(
      h.eventsOf("decision").filter((e) => e.decision.reason === "soft_cap_reduce_only").length,
    ).toBeGreaterThan(1);
  });
});
