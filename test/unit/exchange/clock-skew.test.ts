import { describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import { CLOCK_SKEW_CLEAR_MS, CLOCK_SKEW_WARN_MS, ClockSkewWatch } from "../../../src/exchange/clock-skew.js";
import { ServerClock } from "../../../src/exchange/server-clock.js";
import { createLogger } from "../../../src/observability/logger.js";
import { collectingStream } from "../../support/collecting-stream.js";
import { SteppedClock } from "../../support/stepped-clock.js";
import { serverAnswer } from "./server-answer.js";

const T0 = 1_700_000_000_000;

/** A ServerClock over a wall clock that can be stepped, its samples fed to a ClockSkewWatch. */
function rig() {
  const sink = collectingStream();
  const logger = createLogger({ level: "debug", pretty: false, destination: sink });
  // The exchange's clock is the SimClock's time; ours is it stepped by `wall.stepMs`.
  const sim = new SimClock(T0);
  const wall = new SteppedClock(sim);
  const server = new ServerClock(wall);
  const watch = new ClockSkewWatch(logger);
  server.onSample((offsetMs) => watch.check(offsetMs));
  const answer = () => serverAnswer(sim, wall, server);
  const lines = () => sink.records().map((r) => ({ level: r.level, offsetMs: r.offsetMs }));
  return { wall, server, watch, answer, lines, sink };
}

const WARN = 40;
const INFO = 30;

describe("ClockSkewWatch: told once per crossing", () => {
  it("says nothing while our clock agrees with the exchange's", () => {
    const r = rig();
    for (let i = 0; i < 20; i++) r.answer();
    expect(r.server.offsetMs).toBe(0);
    expect(r.lines()).toEqual([]);
  });

  it("warns once when our clock steps 3 s ahead, however many answers follow, and tells once when it is back", () => {
    const r = rig();
    r.answer();
    r.wall.stepMs = 3_000;
    for (let i = 0; i < 50; i++) r.answer();
    expect(r.lines()).toEqual([{ level: WARN, offsetMs: -3_000 }]);
    const warned = r.sink.records()[0];
    expect(warned?.msg).toMatch(/^our clock is 3000 ms ahead of the exchange's \(X-Server-Time\)/);
    expect(r.watch.skewed).toBe(true);
    // NTP corrects it.
    r.wall.stepMs = 0;
    for (let i = 0; i < 50; i++) r.answer();
    expect(r.lines()).toEqual([
      { level: WARN, offsetMs: -3_000 },
      { level: INFO, offsetMs: 0 },
    ]);
    expect(r.watch.skewed).toBe(false);
    // A second crossing, behind this time, is a second warning.
    r.wall.stepMs = -120_000;
    for (let i = 0; i < 10; i++) r.answer();
    expect(r.lines()).toEqual([
      { level: WARN, offsetMs: -3_000 },
      { level: INFO, offsetMs: 0 },
      { level: WARN, offsetMs: 120_000 },
    ]);
    expect(r.sink.records()[2]?.msg).toMatch(/^our clock is 120000 ms behind the exchange's/);
  });

  it("warns from the first answer of a host that starts skewed", () => {
    const r = rig();
    r.wall.stepMs = -2_001;
    r.answer();
    expect(r.lines()).toEqual([{ level: WARN, offsetMs: 2_001 }]);
  });

  it("an estimate hovering about the threshold warns once, and does not clear until under CLOCK_SKEW_CLEAR_MS", () => {
    const r = rig();
    // Our clock alternates a few ms either side of 2 s behind (each answer's asymmetry in a real run).
    for (let i = 0; i < 40; i++) {
      r.wall.stepMs = i % 2 === 0 ? -(CLOCK_SKEW_WARN_MS + 15) : -(CLOCK_SKEW_WARN_MS - 15);
      r.answer();
    }
    expect(r.lines()).toEqual([{ level: WARN, offsetMs: CLOCK_SKEW_WARN_MS + 15 }]);
    // Between the two thresholds: still skewed, nothing said.
    r.wall.stepMs = -(CLOCK_SKEW_CLEAR_MS + 1);
    for (let i = 0; i < 10; i++) r.answer();
    expect(r.lines()).toHaveLength(1);
    r.wall.stepMs = -CLOCK_SKEW_CLEAR_MS;
    r.answer();
    expect(r.lines()).toEqual([
      { level: WARN, offsetMs: CLOCK_SKEW_WARN_MS + 15 },
      { level: INFO, offsetMs: CLOCK_SKEW_CLEAR_MS },
    ]);
  });

  it("takes exactly CLOCK_SKEW_WARN_MS as no skew, and ignores an estimate that is not a number", () => {
    const r = rig();
    r.watch.check(CLOCK_SKEW_WARN_MS);
    r.watch.check(-CLOCK_SKEW_WARN_MS);
    r.watch.check(Number.NaN);
    expect(r.lines()).toEqual([]);
    expect(CLOCK_SKEW_CLEAR_MS).toBeLessThan(CLOCK_SKEW_WARN_MS);
  });

  it("stops calling a listener once unsubscribed", () => {
    const sim = new SimClock(T0);
    const server = new ServerClock(sim);
    const seen: number[] = [];
    const off = server.onSample((o) => seen.push(o));
    server.observe(T0, T0, T0 + 3_000);
    off();
    server.observe(T0, T0, T0 + 3_000);
    expect(seen).toEqual([3_000]);
    expect(server.snapshot().samples).toBe(2);
  });
});
