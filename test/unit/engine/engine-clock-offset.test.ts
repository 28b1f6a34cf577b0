import { describe, expect, it } from "vitest";
import { SteppedClock } from "../../support/stepped-clock.js";
import { Harness } from "./support/harness.js";

const MINUTE = 60_000;

/** A harness whose engine runs on a SteppedClock; started, quoting 0.47 / 0.53 behind the crowd. */
async function started(): Promise<{ h: Harness; local: SteppedClock; yes: string }> {
  let local: SteppedClock | undefined;
  const h = new Harness({
    engineClock: (x) => {
      local = new SteppedClock(x);
      return local;
    },
  });
  if (local === undefined) throw new Error("engine clock not built");
  const [yes] = h.tokens();
  h.crowdQuote(yes, "0.48", "0.52");
  await h.engine.start();
  await h.run();
  expect(h.botQuotes(yes).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);
  return { h, local, yes };
}

/**
 * The reconcile's exchange-clock instants (the trade cut-off, the inventory's compaction floor) are
 * the local clock plus the offset to the exchange's. Learned once at start, the offset goes stale
 * when the local clock steps forward later: those instants then lie in the exchange's future, by
 * the step. Past the trade lookback (2 min), the floor passes the exchange's present and new fills
 * are refused as late duplicates, and the next backfill starts after fills it never saw. The offset
 * is refreshed from every reconcile's positions read (its X-Server-Time), still a lower bound.
 */
describe("engine reconcile: the exchange clock offset follows a local clock that steps after start", () => {
  it("a fill streamed after the local clock stepped 10 min ahead is applied, not refused as late", async () => {
    const { h, local, yes } = await started();
    local.stepMs = 10 * MINUTE;
    await h.run(30_000); // the periodic reconcile, on the stepped clock
    expect(h.eventsOf("reconcile")).toHaveLength(2);
    h.take(yes, "sell", "0.47", "104"); // the crowd's 100, then 4 of our bid
    await h.run();
    expect(h.fills).toHaveLength(1);
    expect(h.eventsOf("fill").map((e) => e.source)).toEqual(["stream"]);
    expect(h.engine.positionOf(yes)).toBe(4_000_000n);
  });

  it("a fill the stream lost after the step is backfilled by the next reconcile", async () => {
    const { h, local, yes } = await started();
    local.stepMs = 10 * MINUTE;
    await h.run(30_000);
    h.dropFills = true;
    h.take(yes, "sell", "0.47", "104");
    await h.run();
    h.dropFills = false;
    expect(h.engine.positionOf(yes)).toBe(0n);
    h.engine.onReconnect();
    await h.run(1_000);
    expect(h.eventsOf("fill").map((e) => e.source)).toEqual(["backfill"]);
    expect(h.engine.positionOf(yes)).toBe(4_000_000n);
    expect(h.eventsOf("reconcile").at(-1)?.summary).toMatchObject({ reason: "reconnect", backfilled: 1 });
  });

  it("a local clock that steps back (the offset grows) still applies both kinds of fills", async () => {
    const { h, local, yes } = await started();
    local.stepMs = -10 * MINUTE;
    await h.run(30_000);
    h.take(yes, "sell", "0.47", "102"); // 2 of our bid, streamed
    h.crowdQuote(yes, "0.48", "0.52");
    await h.run();
    h.dropFills = true;
    h.take(yes, "sell", "0.47", "102"); // 2 more, lost on the socket
    await h.run();
    h.dropFills = false;
    h.engine.onReconnect();
    await h.run(1_000);
    expect(h.eventsOf("fill").map((e) => e.source)).toEqual(["stream", "backfill"]);
    expect(h.engine.positionOf(yes)).toBe(4_000_000n);
  });
});
