import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { StepSeries, Thinned } from "../../../src/backtest/report/html/downsample.js";

describe("StepSeries", () => {
  it("keeps every change exactly while under the cap, and ends the line at the end time", () => {
    const s = new StepSeries(1_000, 100);
    s.add(900, 1); // before the origin: counts as the origin
    s.add(1_005, 1); // no change: not stored
    s.add(1_010, 2);
    s.add(1_020, 0.5);
    s.add(1_020, 0.75); // same millisecond: one point, its range kept
    s.finish(1_100);
    expect(s.json(6)).toEqual({
      t: [0, 10, 20, 100],
      v: [1, 2, 0.75, 0.75],
      lo: [1, 2, 0.5, 0.75],
      hi: [1, 2, 0.75, 0.75],
      bucketMs: 1,
      observations: 5,
    });
  });

  it("turns NaN into gaps (null) and rounds values", () => {
    const s = new StepSeries(0, 10);
    s.add(1, 0.1234567);
    s.add(2, Number.NaN);
    s.add(3, Number.NaN);
    s.add(4, -0.0000001);
    const j = s.json(6);
    expect(j.v).toEqual([0.123457, null, 0]);
    expect(j.lo).toEqual([0.123457, null, 0]);
  });

  it("stays within maxPoints over a long run, keeping exact values at its points and each bucket's range", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 4, max: 40 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 5_000 }), fc.integer({ min: -20, max: 20 })), {
          minLength: 1,
          maxLength: 600,
        }),
        (max, steps) => {
          const s = new StepSeries(0, max);
          const obs: [number, number][] = [];
          let t = 0;
          for (const [dt, v] of steps) {
            t += dt;
            s.add(t, v);
            obs.push([t, v]);
            expect(s.length).toBeLessThanOrEqual(max);
          }
          s.finish(t + 1);
          expect(s.length).toBeLessThanOrEqual(max);
          const j = s.json(6);
          // Changes only: an observation equal to the one before it carries nothing.
          const changes = obs.filter(([, v], i) => i === 0 || v !== obs[i - 1]?.[1]);
          const valueAt = (x: number) => {
            let v: number | undefined;
            for (const [ct, cv] of changes) if (ct <= x) v = cv;
            return v;
          };
          for (let i = 0; i < j.t.length; i++) {
            const ti = j.t[i] as number;
            if (i > 0) expect(ti).toBeGreaterThan(j.t[i - 1] as number);
            expect(j.v[i]).toBe(valueAt(ti));
            if (i === j.t.length - 1 && ti === t + 1) continue; // the end point
            const prev = i === 0 ? Number.NEGATIVE_INFINITY : (j.t[i - 1] as number);
            const inBucket = changes.filter(([ct]) => ct > prev && ct <= ti).map(([, v]) => v);
            expect(j.lo[i]).toBe(Math.min(...inBucket));
            expect(j.hi[i]).toBe(Math.max(...inBucket));
          }
          // Spikes survive decimation: the extremes of the run are in the ranges.
          const all = obs.map(([, v]) => v);
          expect(Math.min(...(j.lo as number[]))).toBe(Math.min(...all));
          expect(Math.max(...(j.hi as number[]))).toBe(Math.max(...all));
          expect(j.v[j.v.length - 1]).toBe(all[all.length - 1]);
          expect(j.observations).toBe(obs.length);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("decimates a million observations into at most maxPoints, widening its buckets", () => {
    const s = new StepSeries(0, 1_000);
    for (let i = 0; i < 1_000_000; i++) s.add(i * 7, i % 97);
    s.finish(7_000_000);
    const j = s.json(6);
    expect(j.t.length).toBeLessThanOrEqual(1_000);
    expect(j.t.length).toBeGreaterThan(400);
    expect(j.bucketMs).toBeGreaterThanOrEqual(8_192);
    expect(j.t[j.t.length - 1]).toBe(7_000_000);
    expect(Math.min(...(j.lo as number[]))).toBe(0);
    expect(Math.max(...(j.hi as number[]))).toBe(96);
  });
});

describe("Thinned", () => {
  it("keeps at most max items, exactly those at multiples of the stride", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 0, max: 2_000 }), (max, n) => {
        const s = new Thinned<number>(max);
        for (let i = 0; i < n; i++) s.add(i);
        expect(s.items.length).toBeLessThanOrEqual(max);
        expect(s.seen).toBe(n);
        const expected = Array.from({ length: n }, (_, i) => i).filter((i) => i % s.stride === 0);
        expect(s.items).toEqual(expected);
        if (n <= max) expect(s.stride).toBe(1);
      }),
    );
  });
});
