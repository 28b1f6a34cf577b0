import { afterEach, describe, expect, it } from "vitest";
import {
  clock,
  compact,
  etaMs,
  eventRate,
  type ProgressState,
  renderBar,
  renderLine,
} from "../../../../src/backtest/sweep/progress.js";
import { ProgressReporter } from "../../../../src/backtest/sweep/progress-reporter.js";

const state = (over: Partial<ProgressState> = {}): ProgressState => ({
  total: 8,
  done: 3,
  failed: 0,
  events: 300_000,
  eventsTotal: 800_000,
  elapsedMs: 6_000,
  ...over,
});

describe("etaMs and eventRate", () => {
  it("extrapolates from events when the total is known", () => {
    expect(eventRate(state())).toBe(50_000);
    expect(etaMs(state())).toBe(10_000);
  });

  it("falls back to the points' pace, then to unknown", () => {
    expect(etaMs(state({ eventsTotal: undefined }))).toBe(10_000);
    expect(etaMs(state({ eventsTotal: undefined, done: 0 }))).toBeUndefined();
    expect(etaMs(state({ events: 0, done: 0 }))).toBeUndefined();
    expect(etaMs(state({ done: 8 }))).toBe(0);
    expect(eventRate(state({ elapsedMs: 0 }))).toBe(0);
  });
});

describe("renderBar", () => {
  it("draws the share of events done, points, rate and ETA", () => {
    expect(renderBar(state(), 100)).toBe(
      "sweep [###########-------------------] 3/8 points · 50k events/s · ETA 0:10",
    );
    expect(renderBar(state({ failed: 1, eventsTotal: undefined, done: 4, elapsedMs: 4_000_000 }), 100)).toBe(
      "sweep [###############---------------] 4/8 points · 1 failed · 75 events/s · ETA 1:06:40",
    );
  });

  it("is full at the end and unknown-ETA before any estimate", () => {
    expect(renderBar(state({ done: 8, events: 700_000 }), 80)).toMatch(/^sweep \[#{30}\] 8\/8 points/);
    expect(renderBar(state({ done: 0, events: 0, eventsTotal: undefined }), 80)).toBe(
      "sweep [------------------------------] 0/8 points · 0 events/s · ETA --:--",
    );
  });

  it("never reaches the last column, shrinking the bar first", () => {
    for (const cols of [10, 40, 60, 70, 80, 200]) {
      const line = renderBar(state({ failed: 2 }), cols);
      expect(line.length, String(cols)).toBeLessThanOrEqual(cols - 1);
    }
    expect(renderBar(state(), 60)).toBe("sweep [#####---------] 3/8 points · 50k events/s · ETA 0:10");
    expect(renderBar(state(), 45)).toBe("sweep 3/8 points · 50k events/s · ETA 0:10");
  });
});

describe("renderLine", () => {
  it("spells everything out, no terminal control", () => {
    expect(renderLine(state({ failed: 1 }))).toBe(
      "sweep: 3/8 points done (1 failed), 300000 events, 50000 events/s, 6.0 s elapsed, ETA 10 s",
    );
    expect(renderLine(state({ done: 0, events: 0, eventsTotal: undefined }))).toBe(
      "sweep: 0/8 points done, 0 events, 0 events/s, 6.0 s elapsed, ETA unknown",
    );
  });
});

describe("compact and clock", () => {
  it("formats rates and durations", () => {
    expect([0, 999, 999.6, 1234, 12_345, 999_499, 999_600, 4_560_000].map(compact)).toEqual([
      "0",
      "999",
      "1k",
      "1.23k",
      "12.3k",
      "999k",
      "1M",
      "4.56M",
    ]);
    expect([undefined, 0, 1, 59_001, 61_000, 3_600_000].map(clock)).toEqual([
      "--:--",
      "0:00",
      "0:01",
      "1:00",
      "1:01",
      "1:00:00",
    ]);
  });
});

describe("ProgressReporter", () => {
  let reporter: ProgressReporter | undefined;
  afterEach(() => reporter?.stop());

  // A terminal whose size is unknown reports 0 columns (a pty never sized: `script`, `docker exec
  // -t`, some CI runners): the bar was cut to columns − 1 = no character, and showed nothing.
  for (const cols of [0, Number.NaN]) {
    it(`draws the bar at the default width of 80 when the terminal reports ${cols} columns`, () => {
      const out: string[] = [];
      reporter = new ProgressReporter(
        "bar",
        { write: (t) => void out.push(t), columns: () => cols },
        () => 0,
      );
      reporter.pointDone(state());
      reporter.stop();
      const bar = out[0] ?? "";
      expect(bar.startsWith("\r") && bar.endsWith("\x1b[K")).toBe(true);
      expect(bar.slice(1, -3)).toMatch(/^sweep \[#+-+\] 3\/8 points · 50k events\/s · ETA 0:10$/);
      expect(bar.length - "\r\x1b[K".length).toBeLessThanOrEqual(79);
      expect(out.at(-1)).toBe("\r\x1b[K");
    });
  }

  function rig(mode: "bar" | "lines" | "none") {
    const out: string[] = [];
    let now = 0;
    reporter = new ProgressReporter(mode, { write: (t) => void out.push(t), columns: () => 100 }, () => now);
    const advance = (ms: number) => {
      now += ms;
    };
    return { out, r: reporter, advance };
  }

  it("bar: redraws in place, ages the state between updates, clears at the end", () => {
    const { out, r, advance } = rig("bar");
    r.refresh();
    expect(out).toEqual([]);
    r.update(state({ done: 0, eventsTotal: undefined, events: 1000, elapsedMs: 1000 }));
    r.refresh();
    r.refresh();
    advance(1000);
    r.refresh();
    r.pointDone(state({ done: 1, events: 100_000, elapsedMs: 2500 }));
    r.stop();
    expect(out).toEqual([
      "\rsweep [------------------------------] 0/8 points · 1k events/s · ETA --:--\x1b[K",
      "\rsweep [------------------------------] 0/8 points · 500 events/s · ETA --:--\x1b[K",
      "\rsweep [###---------------------------] 1/8 points · 40k events/s · ETA 0:18\x1b[K",
      "\r\x1b[K",
    ]);
  });

  it("lines: one per finished point, periodic ones only when work moved", () => {
    const { out, r, advance } = rig("lines");
    r.update(state({ done: 0, events: 10, eventsTotal: undefined }));
    r.refresh();
    advance(5000);
    r.refresh();
    r.pointDone(state({ done: 1, events: 20, eventsTotal: undefined }));
    r.refresh();
    r.update(state({ done: 1, events: 30, eventsTotal: undefined }));
    advance(5000);
    r.refresh();
    r.stop();
    expect(out).toEqual([
      "sweep: 0/8 points done, 10 events, 2 events/s, 6.0 s elapsed, ETA unknown\n",
      "sweep: 1/8 points done, 20 events, 3 events/s, 6.0 s elapsed, ETA 42 s\n",
      "sweep: 1/8 points done, 30 events, 3 events/s, 11.0 s elapsed, ETA 77 s\n",
    ]);
  });

  it("note: a whole line in every mode; in bar mode above the bar, which is drawn again", () => {
    const bar = rig("bar");
    bar.r.note("before any bar\n");
    bar.r.pointDone(state({ done: 1, events: 100_000, elapsedMs: 2500 }));
    bar.r.note("warning: cut\n");
    bar.r.stop();
    const drawn = "sweep [###---------------------------] 1/8 points · 40k events/s · ETA 0:18";
    expect(bar.out).toEqual([
      "before any bar\n",
      `\r${drawn}\x1b[K`,
      `\r\x1b[Kwarning: cut\n\r${drawn}\x1b[K`,
      "\r\x1b[K",
    ]);
    for (const mode of ["lines", "none"] as const) {
      const { out, r } = rig(mode);
      r.note("warning: cut\n");
      r.stop();
      expect(out, mode).toEqual(["warning: cut\n"]);
    }
  });

  it("none: silent", () => {
    const { out, r } = rig("none");
    r.pointDone(state());
    r.refresh();
    r.stop();
    expect(out).toEqual([]);
  });
});
