import { parseReplayConfig } from "../../../src/backtest/replay/replay-config.js";
import { runBacktest } from "../../../src/backtest/replay/run-backtest.js";

/**
 * The bench's replay config: the bands strategy one and three ticks around the mid on a 0.001
 * tick, live-like constant latencies, a market maker's lifted rate limit (the spec's 10×) and a
 * two-tick requote tolerance, so that the bot keeps quotes resting and trades.
 */
export const BENCH_CONFIG = {
  strategy: {
    name: "bands",
    params: {
      bands: [
        { margin: "0.002", size: "10" },
        { margin: "0.005", size: "25" },
      ],
    },
  },
  latency: { feedMs: 5, entryMs: 3, responseMs: 3 },
  markets: { tick: "0.001", minSize: "5", feeTakerBps: 100 },
  fees: { makerFeeBps: 0 },
  wallet: { usdc: "1000000", shares: "100000" },
  engine: { pruneAfterMs: 120_000, rateLimitPerMin: 6_000, tolerance: { priceTicks: 2, sizeFraction: 0.5 } },
};

/** What one replay measured. */
export interface ReplayMeasure {
  readonly frames: number;
  /** Book frames applied (snapshots and deltas). */
  readonly bookFrames: number;
  readonly trades: number;
  readonly malformed: number;
  readonly rejected: number;
  readonly ms: number;
  /** User CPU time of the process during the replay, ms (every thread: zlib's included). */
  readonly cpuMs: number;
  readonly placed: number;
  readonly fills: number;
  /** Peak resident set size of this process, bytes. */
  readonly maxRssBytes: number;
  /** Highest heapUsed sampled every 10,000 frames (no forced GC). */
  readonly heapHighBytes: number;
}

/** Replays `data` with BENCH_CONFIG (or `config`) and measures it. */
export async function measureReplay(data: string, config: unknown = BENCH_CONFIG): Promise<ReplayMeasure> {
  const cfg = parseReplayConfig([config]);
  let heapHigh = 0;
  const sample = () => {
    heapHigh = Math.max(heapHigh, process.memoryUsage().heapUsed);
  };
  const c0 = process.cpuUsage().user;
  const t0 = performance.now();
  const r = await runBacktest({ config: cfg, data, seed: 1, progressEvery: 10_000, onProgress: sample });
  const ms = performance.now() - t0;
  const cpuMs = (process.cpuUsage().user - c0) / 1000;
  sample();
  const s = r.summary;
  return {
    frames: r.frames,
    bookFrames: s.data.book,
    trades: s.data.trades,
    malformed: s.data.malformedAtExchange,
    rejected: Object.values(s.data.rejected).reduce((a, b) => a + b, 0),
    ms,
    cpuMs,
    placed: s.orders.placed,
    fills: s.fills.count,
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
    heapHighBytes: heapHigh,
  };
}

// As a child process (`node --import tsx replay-run.ts DATA`): one JSON line on stdout.
if (process.argv[1]?.endsWith("replay-run.ts") === true && process.argv[2] !== undefined) {
  const m = await measureReplay(process.argv[2]);
  process.stdout.write(`${JSON.stringify(m)}\n`);
}
