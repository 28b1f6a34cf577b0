import { describe, expect, it } from "vitest";
import { applyTrade, EMPTY_ACCOUNT } from "../../../src/execution/inventory-math.js";
import { Harness } from "./support/harness.js";

// What the kill switch's peak starts from (limit 1 USDC).
describe("engine: the kill switch's starting peak", () => {
  it("a flat start is observed at the start: the loss of the run's first fill counts", async () => {
    const h = new Harness({ risk: { killSwitch: { maxDrawdown: "1" } } });
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    expect(h.botQuotes(yes).length).toBeGreaterThan(0);
    expect(h.engine.status()).toMatchObject({ killSwitch: false, pnlMicro: 0n, drawdownMicro: 0n });
    // The crowd's new ask at 0.34 sweeps our bid: our first fill, marked at 0.32 at once. Seen first
    // with this fill, its loss would have been the peak.
    h.crowdQuote(yes, "0.30", "0.34");
    await h.run();
    const { pnlMicro } = h.engine.status();
    expect(pnlMicro).toBeLessThan(-1_000_000n);
    expect(h.engine.status()).toMatchObject({ killSwitch: true });
    expect(h.eventsOf("kill_switch")).toMatchObject([{ action: "trip", peakMicro: 0n }]);
  });

  it("two restored positions marked one after the other: their worth at start is no drawdown", async () => {
    // Long 10 YES at 0.70 and 10 NO at 0.30 from an earlier run: at mids of 0.50, −2 and +2 USDC.
    const accounts = new Map([
      ["11", applyTrade(EMPTY_ACCOUNT, "buy", 700_000, 10_000_000n)],
      ["12", applyTrade(EMPTY_ACCOUNT, "buy", 300_000, 10_000_000n)],
    ]);
    const h = new Harness({
      risk: { killSwitch: { maxDrawdown: "1" } },
      options: { restore: { accounts, orders: new Map() } },
    });
    const [yes, no] = h.tokens();
    await h.engine.start();
    await h.run();
    // NO's book first (+2 USDC), YES's a second later (−2): the total falls back to 0, which is
    // where it started. Counted from NO's mark, that would be a drawdown of 2 and a trip.
    h.crowdQuote(no, "0.48", "0.52");
    await h.run(1_000);
    expect(h.engine.status()).toMatchObject({ pnlMicro: 2_000_000n, drawdownMicro: 0n });
    h.crowdQuote(yes, "0.48", "0.52");
    await h.run(1_000);
    expect(h.engine.status()).toMatchObject({ killSwitch: false, pnlMicro: 0n, drawdownMicro: 0n });
    // From there on the marks move the PnL as usual: NO's mid down to 0.39 is −1.1 USDC.
    h.crowdQuote(no, "0.37", "0.41");
    await h.run();
    expect(h.engine.status().killSwitch).toBe(true);
    expect(h.eventsOf("kill_switch")).toMatchObject([{ action: "trip", peakMicro: 0n }]);
  });
});
