import { describe, expect, it } from "vitest";
import { applyTrade, EMPTY_ACCOUNT } from "../../../src/execution/inventory-math.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { JournalRecorder } from "../../../src/journal/recorder.js";
import { readRestore } from "../../../src/journal/restore.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import { memoryLogger } from "../../integration/daemon/support.js";
import { ACCOUNT, journalPath } from "../journal/support.js";
import { Harness } from "./support/harness.js";

// An earlier run left the wallet long 10 YES at 0.60 (restored account; marked at 0.50, −1 USDC) and
// its armed switch 0.8 USDC below its peak (the journal's last PnL snapshot).
const LONG = applyTrade(EMPTY_ACCOUNT, "buy", 600_000, 10_000_000n);
const carried = (
  over: { killSwitch?: { atMs: number; peakMicro: bigint; pnlMicro: bigint; drawdownMicro: bigint } } = {},
) =>
  new Harness({
    risk: { killSwitch: { maxDrawdown: "1" } },
    options: {
      restore: {
        accounts: new Map([["11", LONG]]),
        orders: new Map(),
        carriedDrawdown: { drawdownMicro: 800_000n },
        ...over,
      },
    },
  });

describe("engine: a kill-switch drawdown carried over from an earlier run", () => {
  it("starts with it used: a fall of 0.3 USDC (within the limit alone) trips the switch", async () => {
    const h = carried();
    const [yes] = h.tokens();
    expect(h.engine.status()).toMatchObject({ killSwitch: false, drawdownMicro: 800_000n });
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    expect(h.engine.status()).toMatchObject({
      killSwitch: false,
      pnlMicro: -1_000_000n,
      drawdownMicro: 800_000n,
    });
    expect(h.botQuotes(yes).length).toBeGreaterThan(0);
    // Mid 0.47 (the crowd's ask 0.49 stays above our bid): −1.3 USDC, 1.1 below the carried peak (−0.2).
    h.crowdQuote(yes, "0.45", "0.49");
    await h.run();
    expect(h.engine.status().killSwitch).toBe(true);
    expect(h.eventsOf("kill_switch")).toEqual([
      {
        type: "kill_switch",
        atMs: expect.any(Number),
        action: "trip",
        peakMicro: -200_000n,
        pnlMicro: -1_300_000n,
        drawdownMicro: 1_100_000n,
        limitMicro: 1_000_000n,
      },
    ]);
  });

  it("the operator re-bases it to 0 (SIGUSR2 on an armed switch): the whole limit is free again, and journaled", async () => {
    const h = carried();
    const [yes] = h.tokens();
    expect(h.engine.rearmKillSwitch()).toBe(true); // before the first PnL: the carry itself is dropped
    expect(h.engine.status()).toMatchObject({ killSwitch: false, drawdownMicro: 0n });
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    h.crowdQuote(yes, "0.45", "0.49"); // −1.3 USDC: 0.3 below the re-based peak (−1)
    await h.run();
    expect(h.engine.status()).toMatchObject({
      killSwitch: false,
      pnlMicro: -1_300_000n,
      drawdownMicro: 300_000n,
    });
    expect(h.eventsOf("kill_switch")).toMatchObject([{ action: "rearm", drawdownMicro: 0n }]);
    expect(
      h.logs
        .records()
        .some(
          (r) =>
            String(r.msg) ===
            "kill switch's drawdown of 0.8 USDC re-based by the operator: the whole limit is free again",
        ),
    ).toBe(true);
    // Re-based again with a drawdown of 0.3: the peak is now −1.3.
    expect(h.engine.rearmKillSwitch()).toBe(true);
    expect(h.engine.status().drawdownMicro).toBe(0n);
    expect(h.engine.rearmKillSwitch()).toBe(false); // no drawdown: nothing to do
    expect(h.eventsOf("kill_switch")).toHaveLength(2);
  });

  it("a restored trip wins over a carried drawdown", async () => {
    const h = carried({
      killSwitch: { atMs: 1, peakMicro: 0n, pnlMicro: -2_000_000n, drawdownMicro: 2_000_000n },
    });
    expect(h.engine.status()).toMatchObject({ killSwitch: true });
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    expect(h.botQuotes(yes)).toEqual([]);
  });
});

describe("engine: the kill switch's drawdown reaches the journal as it rises", () => {
  it("a run that dies before any PnL snapshot has journaled its drawdown (to 1% of the limit)", async () => {
    const db = openJournalDb(journalPath());
    const writer = new JournalWriter(db);
    const run = writer.beginRun({ account: ACCOUNT, session: "s1", atMs: 0, tokens: [] });
    const h = new Harness({ risk: { killSwitch: { maxDrawdown: "5" } } });
    // snapshotIntervalMs 0: only a stop would write one, and this run never stops.
    const rec = new JournalRecorder({
      writer,
      run,
      clock: h.clock,
      logger: memoryLogger("warn").logger,
      snapshotIntervalMs: 0,
    });
    rec.attach(h.engine);
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    // The crowd's ask at 0.34 sweeps our bid: marked at 0.32, a drawdown within the 5 USDC limit.
    h.crowdQuote(yes, "0.30", "0.34");
    await h.run();
    const { drawdownMicro, killSwitch } = h.engine.status();
    expect(killSwitch).toBe(false);
    expect(drawdownMicro).toBeGreaterThan(1_000_000n);
    for (const e of h.events) rec.onEvent(e);
    const risen = h.eventsOf("drawdown");
    expect(risen.length).toBeGreaterThan(0);
    expect(risen.at(-1)).toMatchObject({ drawdownMicro, limitMicro: 5_000_000n });
    // Killed here: no stop, no periodic snapshot. The next run carries what the rise journaled.
    const next = writer.beginRun({ account: ACCOUNT, session: "s2", atMs: 1, tokens: [] });
    expect(readRestore(db, ACCOUNT, next).carriedDrawdown?.drawdownMicro).toBe(drawdownMicro);
    db.close();
  });
});
