import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { startDaemon } from "../../../src/app/daemon.js";
import type { Clock } from "../../../src/core/clock.js";
import { LiveClock } from "../../../src/core/live-clock.js";
import { createMetrics, type Metrics } from "../../../src/observability/metrics.js";
import { OffsetClock } from "../../support/offset-clock.js";
import { parseExposition } from "../../unit/observability/exposition.js";
import { daemonConfig, daemonSlots, market, memoryLogger, seedMarket, startMock } from "./support.js";

const ARG = market("arg-vs-fra-final-arg-win");
const OFFSET = "mm_exchange_clock_offset_seconds";
/** The bot's host clock runs this far behind the exchange's. */
const BEHIND_MS = 5_000;
/** How far the estimate may be off, s: well inside the 2 s warning threshold either way. */
const SLACK_S = 0.5;

const slots = daemonSlots();

/** The daemon quoting one market against the mock on `clock`, with its metrics and log lines. */
async function started(clock: Clock) {
  const m = await startMock();
  slots.mock = m;
  seedMarket(m, ARG, "0.50", "0.60");
  const metrics = createMetrics({ registry: new Registry(), defaultMetrics: false });
  const { logger, sink } = memoryLogger("info");
  slots.daemon = await startDaemon(daemonConfig(m, [ARG.slug]), { logger, metrics, clock });
  return { metrics, sink };
}

async function offsetSeconds(metrics: Metrics): Promise<number[]> {
  const text = await metrics.registry.metrics();
  return (parseExposition(text).get(OFFSET)?.samples ?? []).map((s) => s.value);
}

/**
 * The daemon estimates the exchange's clock from X-Server-Time and signs order expiries on it, but
 * an operator was never told that the host's clock was off: the journal's and the log's times then
 * disagree with the exchange's records. Against the mock on 127.0.0.1 (a round trip of a few ms).
 */
describe("the host clock's skew from the exchange's (daemon against the mock)", () => {
  it("a host 5 s behind: the gauge reads +5 s and one warning names the offset", async () => {
    const { metrics, sink } = await started(new OffsetClock(-BEHIND_MS));
    const [seconds, ...rest] = await offsetSeconds(metrics);
    expect(rest).toEqual([]);
    // The estimate's error is the answer's asymmetry: a loopback round trip is a few ms, but bot and
    // mock share one event loop, which a loaded machine stalls for longer.
    expect(Math.abs((seconds as number) - BEHIND_MS / 1_000)).toBeLessThan(SLACK_S);
    const skewLines = sink.records().filter((r) => String(r.msg).startsWith("our clock"));
    expect(skewLines).toHaveLength(1);
    expect(skewLines[0]?.level).toBe(40);
    expect(Math.abs(Number(skewLines[0]?.offsetMs) - BEHIND_MS)).toBeLessThan(SLACK_S * 1_000);
    expect(String(skewLines[0]?.msg)).toMatch(/^our clock is \d+ ms behind the exchange's/);
  });

  it("a host in step with the exchange: the gauge reads about 0 and nothing is said", async () => {
    const { metrics, sink } = await started(new LiveClock());
    const [seconds, ...rest] = await offsetSeconds(metrics);
    expect(rest).toEqual([]);
    expect(Math.abs(seconds as number)).toBeLessThan(SLACK_S);
    expect(sink.records().filter((r) => String(r.msg).startsWith("our clock"))).toEqual([]);
  });
});
