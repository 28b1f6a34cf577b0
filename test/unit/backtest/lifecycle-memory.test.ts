import { describe, expect, it } from "vitest";
import { LifecycleMemory } from "../../../src/backtest/sim/lifecycle.js";
import type { ChannelEvent } from "../../../src/gateway/schema/events.js";

/*
 * s18 recfix: the replay acts on a lifecycle frame carried into a rotated file (sid "carry") only
 * when it says something the replay does not know: replaying the whole directory, a carried
 * resolution acted on again would mark the payouts (and count the frame) twice.
 */

const C = `0x${"cd".repeat(32)}`;
const ev = (e: Record<string, unknown>) => ({ conditionId: C, tsMs: 1, ...e }) as unknown as ChannelEvent;
const platform = (frozen: boolean | undefined) =>
  ({ type: "platform_status", frozen, data: {} }) as unknown as ChannelEvent;

describe("LifecycleMemory", () => {
  it("a market's status, and its payouts once applied, are known; an unknown market's are new", () => {
    const m = new LifecycleMemory();
    const paused = ev({ type: "market_paused" });
    const resolved = ev({ type: "market_resolved", resolution: "YES", payouts: { "0": "1", "1": "0" } });
    expect(m.adds(paused)).toBe(true);
    m.note(paused);
    expect(m.adds(paused)).toBe(false);
    expect(
      m.adds(
        ev({ type: "market_status", status: "PAUSED", conditionId: C.toUpperCase().replace("0X", "0x") }),
      ),
    ).toBe(false);
    expect(m.adds(ev({ type: "market_unpaused" }))).toBe(true);
    expect(m.adds(resolved)).toBe(true);
    m.note(ev({ type: "market_status", status: "RESOLVED" })); // a read: the status without the payouts
    expect(m.adds(resolved)).toBe(true);
    m.note(resolved);
    expect(m.adds(resolved)).toBe(false);
    m.note(ev({ type: "market_status", status: "RESOLVED" }));
    expect(m.adds(resolved)).toBe(false); // the payouts stay applied
  });

  it("the platform's freeze is known once a frozen flag was acted on", () => {
    const m = new LifecycleMemory();
    expect(m.adds(platform(true))).toBe(true);
    expect(m.adds(platform(undefined))).toBe(false); // nothing to act on
    m.note(platform(true));
    expect(m.adds(platform(true))).toBe(false);
    expect(m.adds(platform(false))).toBe(true);
  });

  it("repeats: a carried frame the replay knows (skipped before any accounting); never a recorded one", () => {
    const m = new LifecycleMemory();
    const frame = (sid: unknown, frozen: unknown) => ({
      type: "platform_status",
      sid,
      channel: "system",
      id: "platform_status",
      data: { frozen },
    });
    expect(m.repeats(frame("carry", true))).toBe(false); // new: acted on
    m.note(platform(true));
    expect(m.repeats(frame("carry", true))).toBe(true);
    expect(m.repeats(frame(4, true))).toBe(false); // a recorded frame is never skipped as carried
    expect(m.repeats(frame("carry", "yes"))).toBe(false); // refused by the parser: counted as refused
  });

  /*
   * s19 r2recfix: a market resolved with payouts, then DISPUTED, is carried as [resolution,
   * DISPUTED]. Comparing the resolution's RESOLVED with the DISPUTED known, the whole directory's
   * replay acted on the carried resolution at every rotation (re-resolving the market, marking the
   * payouts and handing them to the engine again), then on the DISPUTED after it.
   */
  it("a resolution once acted on stays known, whatever status followed it", () => {
    const paid = ev({ type: "market_resolved", resolution: "YES", payouts: { "0": "1", "1": "0" } });
    const bare = ev({ type: "market_resolved", resolution: "YES" });
    const disputed = ev({ type: "market_status", status: "DISPUTED" });
    // The whole directory: both acted on from the earlier file, the carried copies add nothing.
    const m = new LifecycleMemory();
    m.note(paid);
    m.note(disputed);
    expect([m.adds(paid), m.adds(bare), m.adds(disputed)]).toEqual([false, false, false]);
    expect(m.adds(ev({ type: "market_status", status: "RESOLVED" }))).toBe(true); // a status is still a status
    // Resolved without payouts, then disputed: a resolution with payouts is new, a bare one is not.
    const b = new LifecycleMemory();
    b.note(bare);
    b.note(disputed);
    expect([b.adds(paid), b.adds(bare)]).toEqual([true, false]);
    // The file replayed alone: its head [resolution, DISPUTED] is all new, acted on in order.
    const alone = new LifecycleMemory();
    expect(alone.adds(paid)).toBe(true);
    alone.note(paid);
    expect(alone.adds(disputed)).toBe(true);
  });
});
