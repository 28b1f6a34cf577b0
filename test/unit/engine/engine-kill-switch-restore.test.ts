import { describe, expect, it } from "vitest";
import { applyTrade, EMPTY_ACCOUNT } from "../../../src/execution/inventory-math.js";
import { Harness } from "./support/harness.js";

// An earlier run tripped the switch at 1 USDC below its peak of 2 USDC and stopped without a re-arm.
const TRIP = { atMs: 1_000, peakMicro: 2_000_000n, pnlMicro: -1_500_000n, drawdownMicro: 3_500_000n };
// It left the wallet long 10 YES at 0.60 (restored account): marked at 0.50, −1 USDC.
const LONG = applyTrade(EMPTY_ACCOUNT, "buy", 600_000, 10_000_000n);

function placesSince(h: Harness, from: number): number {
  return h.exchange.calls.slice(from).filter((c) => c.op === "place").length;
}

describe("engine: a kill-switch trip restored from an earlier run", () => {
  it("starts tripped and places nothing, whatever the books do, until the operator re-arms it", async () => {
    const h = new Harness({
      risk: { killSwitch: { maxDrawdown: "1" } },
      options: { restore: { accounts: new Map(), orders: new Map(), killSwitch: TRIP } },
    });
    const [yes, no] = h.tokens();
    // The trip's drawdown is the drawdown shown (mm_risk_drawdown_usdc), not a fresh 0.
    expect(h.engine.status()).toMatchObject({ killSwitch: true, drawdownMicro: 3_500_000n });
    h.crowdQuote(yes, "0.48", "0.52");
    h.crowdQuote(no, "0.48", "0.52");
    await h.engine.start();
    await h.run(60_000);
    h.crowdQuote(yes, "0.45", "0.55");
    await h.run(1_000);
    expect(placesSince(h, 0)).toBe(0);
    expect(h.botQuotes()).toEqual([]);
    expect(h.engine.status()).toMatchObject({ killSwitch: true, drawdownMicro: 3_500_000n });
    expect(h.eventsOf("kill_switch")).toEqual([]); // restoring it is no new trip: nothing to journal

    expect(h.engine.rearmKillSwitch()).toBe(true);
    await h.run();
    expect(h.engine.status().killSwitch).toBe(false);
    expect(h.botQuotes().length).toBeGreaterThan(0);
    expect(h.eventsOf("kill_switch")).toEqual([
      {
        type: "kill_switch",
        atMs: expect.any(Number),
        action: "rearm",
        peakMicro: 0n,
        pnlMicro: 0n,
        drawdownMicro: 0n,
        limitMicro: 1_000_000n,
      },
    ]);
    expect(h.engine.rearmKillSwitch()).toBe(false);
  });

  it("after the re-arm the peak is the PnL at the re-arm (restored accounts included), not the earlier run's peak", async () => {
    const h = new Harness({
      risk: { killSwitch: { maxDrawdown: "1" } },
      options: {
        restore: { accounts: new Map([["11", LONG]]), orders: new Map(), killSwitch: TRIP },
      },
    });
    const [yes] = h.tokens();
    expect(yes).toBe("11");
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    expect(h.engine.status()).toMatchObject({ killSwitch: true, pnlMicro: -1_000_000n });
    expect(h.engine.rearmKillSwitch()).toBe(true);
    await h.run();
    const rearm = h.eventsOf("kill_switch").at(-1);
    expect(rearm).toMatchObject({ action: "rearm", peakMicro: -1_000_000n, pnlMicro: -1_000_000n });
    // Mid 0.47 (the crowd's ask 0.49 stays above our bid): −1.3 USDC, 0.3 below the re-arm's PnL.
    // Measured from the earlier run's peak (2 USDC) it would trip at once.
    h.crowdQuote(yes, "0.45", "0.49");
    await h.run();
    expect(h.engine.status()).toMatchObject({ killSwitch: false, pnlMicro: -1_300_000n });
    // Down to mid 0.32 (sweeping our bid): tripped again, measured from the PnL at the re-arm (−1 USDC),
    // not from the first PnL seen after it (−1.3); that trip is reported for the journal.
    h.crowdQuote(yes, "0.30", "0.34");
    await h.run();
    expect(h.engine.status().killSwitch).toBe(true);
    const trip = h.eventsOf("kill_switch").at(-1);
    expect(trip).toMatchObject({ action: "trip", peakMicro: -1_000_000n, limitMicro: 1_000_000n });
    expect(trip?.drawdownMicro).toBe(-1_000_000n - (trip?.pnlMicro ?? 0n));
    expect(trip?.drawdownMicro).toBeGreaterThan(1_000_000n);
  });

  it("without a restored trip the engine starts armed (no journal, or a re-armed one: today's behaviour)", async () => {
    const h = new Harness({ risk: { killSwitch: { maxDrawdown: "1" } } });
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    expect(h.engine.status().killSwitch).toBe(false);
    expect(h.botQuotes(yes)).toHaveLength(2);
  });
});
