import { describe, expect, it } from "vitest";
import { PAYOUT_READS_GIVE_UP_MS } from "../../../src/engine/closed-market-watch.js";
import type { MarketRecordStatus } from "../../../src/engine/ports.js";
import { type Harness, T0 } from "./support/harness.js";
import { restartedAfterResolution } from "./support/settlement.js";

/**
 * A settled market's record is read once a minute for its payouts, for a day from the first read.
 * That day's start was kept in memory only, so every restart began a new day: a daemon restarted
 * (or crash-looping) more often than daily read a record without payouts for ever. The first read's
 * time is now reported (`payout_reads_started`, journaled) and handed back at start
 * (restore.payoutReadsSince): the day goes on from it.
 */
const MIN = 60_000;

/** A restart after market 1 resolved without payouts (20 YES carried), its day of reads begun at `since`. */
function restarted(since: number | undefined): { h: Harness; reads: () => number } {
  const h = restartedAfterResolution(
    since === undefined ? {} : { restore: { payoutReadsSince: new Map([["m1", since]]) } },
  );
  let reads = 0;
  h.exchange.marketRecord = async (): Promise<MarketRecordStatus> => {
    reads++;
    return { status: "RESOLVED" };
  };
  return { h, reads: () => reads };
}

async function start(h: Harness): Promise<void> {
  const starting = h.engine.start();
  await h.run(500);
  await starting;
}

function gaveUp(h: Harness): number {
  return h.logs
    .records()
    .filter((r) => String(r.msg).startsWith("settled market's payouts not read in a day")).length;
}

describe("settlement: the day of payout reads goes on across restarts", () => {
  it("a first run reports when its day began (for the journal), once", async () => {
    const { h, reads } = restarted(undefined);
    await start(h);
    await h.run(3 * MIN);
    expect(reads()).toBe(3);
    const started = h.eventsOf("payout_reads_started");
    expect(started).toEqual([{ type: "payout_reads_started", atMs: expect.any(Number), marketId: "m1" }]);
    expect(started[0]?.atMs).toBeGreaterThanOrEqual(T0 + MIN);
    expect(started[0]?.atMs).toBeLessThan(T0 + MIN + 500);
  });

  it("a restart ten minutes before the day ends reads for those ten minutes only", async () => {
    const { h, reads } = restarted(T0 - PAYOUT_READS_GIVE_UP_MS + 10 * MIN);
    await start(h);
    await h.run(60 * MIN);
    expect(reads()).toBe(9); // at 1…9 min; the 10th minute's round ends the day
    expect(gaveUp(h)).toBe(1);
    expect(h.eventsOf("payout_reads_started")).toEqual([]);
  });

  it("a restart after the day ended reads nothing (logged once)", async () => {
    const { h, reads } = restarted(T0 - PAYOUT_READS_GIVE_UP_MS - 3_600_000);
    await start(h);
    await h.run(60 * MIN);
    expect(reads()).toBe(0);
    expect(gaveUp(h)).toBe(1);
  });
});
