import { describe, expect, it } from "vitest";
import type { PositionsAt } from "../../../src/engine/ports.js";
import { BOT, Harness } from "./support/harness.js";
import { YES_WINS } from "./support/settlement.js";

/**
 * What the engine does with a market's status once its stop has begun.
 * - A status the exchange pushes during the stop is as true as before it: it is still taken (logged,
 *   applied, the payouts pinned), so the stop's last PnL snapshot (the journal's, on `stopped`)
 *   counts a resolution that came in meanwhile. It starts no read and leaves no timer.
 * - A reconcile already running when the stop began still checks the positions, but a drift there
 *   starts no read of the market's record: its answer would come to a stopped engine, which drops
 *   it, so the GET would be sent for nothing. The drift stays uncorrected, as it does while a read
 *   made for it is out.
 */

/** A started engine, its market records counted (each answered OPEN). */
async function started(botShares?: string): Promise<{ h: Harness; reads: () => number }> {
  const h = new Harness({ latencyMs: 50, ...(botShares === undefined ? {} : { botShares }) });
  let reads = 0;
  h.exchange.marketRecord = async () => {
    reads++;
    return { status: "OPEN" };
  };
  h.crowdQuote(h.tokens()[0], "0.48", "0.52");
  h.crowdQuote(h.tokens()[1], "0.48", "0.52");
  const starting = h.engine.start();
  await h.run(500);
  await starting;
  return { h, reads: () => reads };
}

describe("engine stop: a reconcile running when the stop begins", () => {
  it("sends no market-record read for a drift its position check finds", async () => {
    const { h, reads } = await started("10");
    const [yes] = h.tokens();
    // The wallet's 10 YES leave it and no fill explains it: a redemption's signature, which the
    // position check reads the market's record for.
    h.venue.cancelAll(BOT);
    h.venue.debit(BOT, yes, 10_000_000n);
    // The next periodic reconcile is held at its positions read.
    const read = h.exchange.positionsAt.bind(h.exchange);
    let release: (() => void) | undefined;
    h.exchange.positionsAt = () =>
      new Promise<PositionsAt>((resolve, reject) => {
        release = () => read().then(resolve, reject);
      });
    await h.run(30_000);
    expect(release, "the periodic reconcile reached its positions read").toBeDefined();
    h.exchange.positionsAt = read;

    const stopping = h.engine.stop("test", 5_000);
    release?.();
    await h.run(5_000);
    await stopping;
    expect(
      h
        .eventsOf("reconcile")
        .at(-1)
        ?.summary.drifts.map((d) => d.tokenId),
    ).toEqual([yes]);
    expect(reads(), "a record read sent after the stop began").toBe(0);
    expect(h.engine.positionOf(yes)).toBe(0n);
    expect(h.clock.nextDeadline()).toBeUndefined();
  });
});

describe("engine stop: a market status pushed while stopping", () => {
  it("market_resolved with payouts: taken, the tokens marked at them before the stop ends", async () => {
    const { h, reads } = await started();
    const [yes, no] = h.tokens();
    h.take(yes, "sell", "0.47", "110"); // the crowd's 100 at 0.48, then the bot's 10 at 0.47
    await h.run(2_000);
    expect(h.engine.positionOf(yes)).toBe(10_000_000n);

    const stopping = h.engine.stop("test", 5_000);
    h.engine.onMarketStatus("m1", "RESOLVED", YES_WINS);
    await h.run(5_000);
    await stopping;
    expect(h.engine.markOf(yes)).toBe(1_000_000);
    expect(h.engine.markOf(no)).toBe(0);
    // 10 YES bought at 0.47, worth 1 each: 5.3 USDC.
    expect(h.engine.status().pnlMicro).toBe(5_300_000n);
    const types = h.events.map((e) => e.type);
    expect(types.indexOf("market_settlement")).toBeGreaterThan(-1);
    expect(types.indexOf("market_settlement")).toBeLessThan(types.indexOf("stopped"));
    expect(h.logs.text()).toContain("market is now RESOLVED");
    expect(h.logs.text()).toContain("settled market marked at its payouts");
    expect(reads()).toBe(0);
    expect(h.clock.nextDeadline()).toBeUndefined();
  });

  it("a status without payouts: taken, but no record is read for them and no timer is left", async () => {
    const { h, reads } = await started();
    const stopping = h.engine.stop("test", 5_000);
    h.engine.onMarketStatus("m1", "RESOLVED");
    h.engine.onMarketStatus("m1", "PAUSED"); // ignored: settled is final
    await h.run(5_000);
    await stopping;
    await h.run(120_000);
    expect(h.logs.text()).toContain("market is now RESOLVED");
    expect(reads()).toBe(0);
    expect(h.eventsOf("payout_reads_started")).toHaveLength(0);
    expect(h.clock.nextDeadline()).toBeUndefined();
  });
});
