import { describe, expect, it } from "vitest";
import { sleep } from "../../../src/core/clock.js";
import { clientOrderId, isValidSessionTag } from "../../../src/core/ids.js";
import { LiveClock } from "../../../src/core/live-clock.js";
import { SimClock } from "../../../src/core/sim-clock.js";

describe("SimClock", () => {
  it("fires timers in deadline order, ties in scheduling order, with now() at each deadline", () => {
    const clock = new SimClock(1_000);
    const seen: string[] = [];
    clock.setTimer(50, () => seen.push(`b@${clock.now()}`));
    clock.setTimer(10, () => seen.push(`a@${clock.now()}`));
    clock.setTimer(50, () => seen.push(`c@${clock.now()}`));
    clock.advanceTo(1_040);
    expect(seen).toEqual(["a@1010"]);
    expect(clock.now()).toBe(1_040);
    clock.advanceBy(100);
    expect(seen).toEqual(["a@1010", "b@1050", "c@1050"]);
    expect(clock.now()).toBe(1_140);
  });

  it("fires timers scheduled by timers when due, cancels, and refuses to go back", () => {
    const clock = new SimClock(0);
    const seen: number[] = [];
    clock.setTimer(10, () => {
      seen.push(clock.now());
      clock.setTimer(5, () => seen.push(clock.now()));
    });
    const id = clock.setTimer(12, () => seen.push(-1));
    clock.cancelTimer(id);
    clock.advanceTo(100);
    expect(seen).toEqual([10, 15]);
    expect(clock.pending).toBe(0);
    expect(() => clock.advanceTo(50)).toThrow(RangeError);
  });

  it("step() runs one timer; sleep() resolves when the clock passes the deadline", async () => {
    const clock = new SimClock(0);
    let done = false;
    const p = sleep(clock, 200).then(() => {
      done = true;
    });
    expect(clock.nextDeadline()).toBe(200);
    clock.advanceTo(199);
    await Promise.resolve();
    expect(done).toBe(false);
    expect(clock.step()).toBe(true);
    await p;
    expect(done).toBe(true);
    expect(clock.now()).toBe(200);
    expect(clock.step()).toBe(false);
  });
});

describe("LiveClock", () => {
  it("reads the wall clock and runs and cancels real timers", async () => {
    const clock = new LiveClock();
    const before = Date.now();
    expect(Math.abs(clock.now() - before)).toBeLessThan(1_000);
    let cancelledFired = false;
    const id = clock.setTimer(5, () => {
      cancelledFired = true;
    });
    clock.cancelTimer(id);
    await sleep(clock, 20);
    expect(cancelledFired).toBe(false);
  });
});

describe("clientOrderId", () => {
  const base = { session: "s1", tokenId: "1234567890", side: "buy", level: 0, seq: 1 } as const;
  it("is deterministic and distinct across each component", () => {
    const id = clientOrderId(base);
    expect(clientOrderId(base)).toBe(id);
    const variants = [
      { ...base, session: "s2" },
      { ...base, tokenId: "1234567891" },
      { ...base, side: "sell" as const },
      { ...base, level: 1 },
      { ...base, seq: 2 },
    ].map(clientOrderId);
    expect(new Set([id, ...variants]).size).toBe(6);
    expect(id).toMatch(/^mm-s1-[0-9a-f]{10}-b0-1$/);
  });
  it("session tags are short lowercase alphanumerics", () => {
    expect(isValidSessionTag("abc123")).toBe(true);
    expect(isValidSessionTag("ABC")).toBe(false);
    expect(isValidSessionTag("")).toBe(false);
    expect(isValidSessionTag("a".repeat(17))).toBe(false);
  });
});
