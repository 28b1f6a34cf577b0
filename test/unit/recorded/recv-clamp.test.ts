import { describe, expect, it } from "vitest";
import { RecvClamp } from "../../../src/gateway/record/recv-clamp.js";

/*
 * recvTs comes from the wall clock, which can be stepped. The clamp keeps it non-decreasing. A
 * small step back (up to holdMaxMs, 1 s by default: an NTP correction) is held: frames take the
 * last stamp until the wall clock catches up, which it does within that second. A large one (the
 * clock ran hours ahead, a VM resumed with a stale clock, then got corrected) would hold every
 * frame of those hours at one instant, so recvTs continues from the last stamp on the monotonic
 * clock instead, and goes back to the wall clock as soon as that is ahead again.
 */

const T0 = Date.parse("2026-06-01T00:00:00.000Z");
const HOUR = 3_600_000;

/** A wall clock and a monotonic clock the test moves; `run` advances both. */
class Clocks {
  wall = T0;
  mono = 1_000;
  run(ms: number): void {
    this.wall += ms;
    this.mono += ms;
  }
}

describe("RecvClamp", () => {
  it("a forward step corrected hours later: frames keep their intervals, not one frozen stamp", () => {
    const c = new Clocks();
    const steps: { stepMs: number; continued: boolean }[] = [];
    const clamp = new RecvClamp({ monotonic: () => c.mono, onStepBack: (s) => steps.push(s) });
    // The wall clock is 3 h ahead (a VM resumed with a stale offset): frames every 100 ms.
    c.wall += 3 * HOUR;
    const out: number[] = [];
    for (let i = 0; i < 10; i++) {
      out.push(clamp.next(c.wall));
      c.run(100);
    }
    const lastBefore = out.at(-1) ?? 0;
    // NTP corrects it: 3 h back. Two hours of frames follow, one every 100 ms.
    c.wall -= 3 * HOUR;
    const after: number[] = [];
    for (let i = 0; i < 72_000; i++) {
      after.push(clamp.next(c.wall));
      c.run(100);
    }
    expect(after[0]).toBe(lastBefore + 100);
    const gaps = new Set(after.slice(1).map((t, i) => t - (after[i] ?? 0)));
    expect([...gaps]).toEqual([100]); // the intervals as received, not one instant
    expect(steps).toEqual([{ stepMs: 3 * HOUR, continued: true }]); // said once, with its size
    expect(clamp.stepBacks).toEqual({ frames: 72_000, maxStepMs: 3 * HOUR });
    expect(after.at(-1)).toBe(T0 + 3 * HOUR + 900 + 72_000 * 100); // still 3 h ahead of the wall clock
  });

  it("a small step back (NTP) is held until the wall clock catches up, then follows it again", () => {
    const c = new Clocks();
    const steps: { stepMs: number; continued: boolean }[] = [];
    const clamp = new RecvClamp({ monotonic: () => c.mono, onStepBack: (s) => steps.push(s) });
    expect(clamp.next(c.wall)).toBe(T0);
    c.run(100);
    expect(clamp.next(c.wall)).toBe(T0 + 100);
    c.wall -= 300; // 300 ms behind the last stamp
    expect(clamp.next(c.wall)).toBe(T0 + 100);
    c.run(200);
    expect(clamp.next(c.wall)).toBe(T0 + 100);
    c.run(150);
    expect(clamp.next(c.wall)).toBe(T0 + 150); // caught up: wall time again
    expect(steps).toEqual([{ stepMs: 300, continued: false }]);
    expect(clamp.stepBacks).toEqual({ frames: 2, maxStepMs: 300 });
  });

  it("a held step that grows past the limit (another step back) continues on the monotonic clock", () => {
    const c = new Clocks();
    const steps: { stepMs: number; continued: boolean }[] = [];
    const clamp = new RecvClamp({ monotonic: () => c.mono, onStepBack: (s) => steps.push(s) });
    clamp.next(c.wall);
    c.run(50);
    c.wall -= 850; // 800 ms back: held
    expect(clamp.next(c.wall)).toBe(T0);
    c.run(50);
    c.wall -= 500; // 1,250 ms behind the held stamp now: continued from it (+50 ms elapsed)
    expect(clamp.next(c.wall)).toBe(T0 + 50);
    c.run(70);
    expect(clamp.next(c.wall)).toBe(T0 + 120);
    expect(steps).toEqual([
      { stepMs: 800, continued: false },
      { stepMs: 1_300, continued: true },
    ]);
  });

  it("returns to the wall clock once it is ahead of the continued stamps (a later forward step)", () => {
    const c = new Clocks();
    const clamp = new RecvClamp({ monotonic: () => c.mono, holdMaxMs: 1_000 });
    clamp.next(c.wall);
    c.run(10);
    c.wall -= 60_000;
    expect(clamp.next(c.wall)).toBe(T0 + 10);
    c.run(10);
    expect(clamp.next(c.wall)).toBe(T0 + 20);
    c.wall += 60_005; // corrected again: the wall clock is 5 ms past the continued stamps
    c.run(10);
    expect(clamp.next(c.wall)).toBe(T0 + 35);
    c.run(10);
    expect(clamp.next(c.wall)).toBe(T0 + 45);
    expect(clamp.stepBacks.frames).toBe(2);
  });

  it("never goes back even if the monotonic source did", () => {
    let mono = 500;
    const clamp = new RecvClamp({ monotonic: () => mono });
    clamp.next(T0);
    mono = 400;
    expect(clamp.next(T0 - 5_000)).toBe(T0);
  });
});
