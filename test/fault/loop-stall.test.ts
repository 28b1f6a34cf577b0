import { describe, expect, it } from "vitest";
import { watchLoopStall } from "./loop-stall.js";

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("watchLoopStall", () => {
  it("counts a blocked loop within the window asked about, and not outside it", async () => {
    const started = Date.now();
    const stall = watchLoopStall();
    try {
      await tick(30);
      const from = Date.now();
      while (Date.now() - from < 200) {} // the loop held for 200 ms
      const to = Date.now();
      await tick(30); // the late tick records the stall
      expect(stall.within(from, to)).toBeGreaterThanOrEqual(150);
      expect(stall.within(from, to)).toBeLessThanOrEqual(to - from);
      // Nothing before the watch began (however loaded the box, a stall begins at a due tick).
      expect(stall.within(started - 1_000, started)).toBe(0);
    } finally {
      stall.stop();
    }
  });
});
