import { describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import { PeriodicAudit } from "../../../src/gateway/periodic-audit.js";

/** A PeriodicAudit on a SimClock whose jitter draws come from `draws` in turn. */
function rig(intervalMs: number, draws: number[]) {
  const clock = new SimClock(0);
  const runs: [number, number][] = [];
  let i = 0;
  const random = () => draws[i++ % draws.length] ?? 0.5;
  const heard: boolean[] = [];
  const audit = new PeriodicAudit(
    clock,
    intervalMs,
    random,
    (link) => runs.push([link, clock.now()]),
    (on) => heard.push(on),
  );
  return { clock, runs, audit, heard };
}

describe("PeriodicAudit", () => {
  it("checks each link every interval, jittered into [¾, 1¼] of it, on the injected clock", () => {
    const { clock, runs, audit } = rig(60_000, [0, 1, 0.5, 0.5]);
    audit.arm(0); // 45 s
    audit.arm(1); // 75 s
    clock.advanceBy(45_000);
    expect(runs).toEqual([[0, 45_000]]);
    clock.advanceBy(30_000);
    expect(runs).toEqual([
      [0, 45_000],
      [1, 75_000],
    ]);
    clock.advanceBy(30_000); // link 0 again at 45 + 60
    expect(runs.at(-1)).toEqual([0, 105_000]);
  });

  it("a re-arm (reconnect) restarts the link's interval rather than adding a second timer", () => {
    const { clock, runs, audit } = rig(10_000, [0.5]);
    audit.arm(0);
    clock.advanceBy(5_000);
    audit.arm(0);
    clock.advanceBy(9_999);
    expect(runs).toEqual([]);
    clock.advanceBy(1);
    expect(runs).toEqual([[0, 15_000]]);
    expect(clock.pending).toBe(1);
  });

  it("stop() cancels every timer for good; 0 arms nothing", () => {
    const a = rig(10_000, [0.5]);
    a.audit.arm(0);
    a.audit.arm(1);
    a.audit.stop();
    expect(a.clock.pending).toBe(0);
    a.audit.arm(2);
    a.clock.advanceBy(60_000);
    expect(a.runs).toEqual([]);
    expect(a.audit.active).toBe(false);
    const off = rig(0, [0.5]);
    off.audit.arm(0);
    expect(off.clock.pending).toBe(0);
    expect(off.audit.active).toBe(false);
  });

  it("pause() holds every link off for 60 periods, then arms each link again; said to onActive", () => {
    const { clock, runs, audit, heard } = rig(10_000, [0.5]);
    audit.arm(0);
    audit.arm(1);
    expect(audit.pauseMs).toBe(600_000);
    expect(audit.pause()).toBe(true);
    expect(audit.active).toBe(false);
    expect(audit.pause()).toBe(false); // already paused: the pause is not extended
    audit.arm(2); // a link opened meanwhile: armed when the pause ends
    clock.advanceBy(599_999);
    expect(runs).toEqual([]);
    clock.advanceBy(1);
    expect(audit.active).toBe(true);
    clock.advanceBy(10_000);
    expect(runs.map(([link]) => link).sort()).toEqual([0, 1, 2]);
    expect(heard).toEqual([false, true]);
  });

  it("stop() during a pause cancels its end for good", () => {
    const { clock, runs, audit, heard } = rig(10_000, [0.5]);
    audit.arm(0);
    audit.pause();
    audit.stop();
    expect(clock.pending).toBe(0);
    clock.advanceBy(3_600_000);
    expect(runs).toEqual([]);
    expect(heard).toEqual([false]);
  });
});
