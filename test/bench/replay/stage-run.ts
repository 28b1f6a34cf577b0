import { attachMirror } from "../../../src/backtest/replay/attach-mirror.js";
import { parseReplayConfig } from "../../../src/backtest/replay/replay-config.js";
import { scanTokens } from "../../../src/backtest/replay/scan-tokens.js";
import type { TokenSetting } from "../../../src/backtest/sim/markets.js";
import { buildMarkets } from "../../../src/backtest/sim/markets.js";
import { SimSession } from "../../../src/backtest/sim/session.js";
import { type RecordedFrame, readRecordedBatches } from "../../../src/recorded/format.js";
import { BENCH_CONFIG } from "./replay-run.js";

/**
 * How much of the replay a stage run keeps, from the frames already in memory (no reading):
 * - "exchange": each frame through the gateway's parser into the exchange's book, and its feed
 *   latency timer on the SimClock, pumped as the replay pumps it — but the tracker ignores it, so
 *   the engine never quotes;
 * - "engine": and the BookTracker and the engine (bands, risk, order manager, queue, reconciler),
 *   against a venue that holds none of the recorded liquidity (the bot's quotes never fill);
 * - "full": and the mirror of the recorded liquidity — the replay itself, minus reading and the
 *   report's recorder.
 * The ablation says what each part of a replay costs per delta (BENCHMARKS.md).
 */
export type Stage = "exchange" | "engine" | "full";

/** A recording in memory: its records and its tokens (a bench's setup, not timed). */
export interface InMemory {
  readonly records: readonly RecordedFrame[];
  readonly tokens: readonly TokenSetting[];
}

/** Reads a recording into memory. */
export async function loadRecording(path: string): Promise<InMemory> {
  const records: RecordedFrame[] = [];
  for await (const batch of readRecordedBatches(path)) for (const r of batch) records.push(r);
  const tokens = await scanTokens([path], parseReplayConfig([BENCH_CONFIG]).marketDefaults);
  return { records, tokens };
}

/** Replays a recording in memory up to `stage`; returns the frames and the engine's placements. */
export async function replayStage(data: InMemory, stage: Stage): Promise<{ frames: number; placed: number }> {
  const config = parseReplayConfig([BENCH_CONFIG]);
  const markets = buildMarkets([...data.tokens]);
  const records = data.records;
  const first = records[0];
  if (first === undefined) throw new Error("no record");
  const session = new SimSession({
    settings: config,
    markets,
    startMs: first.recvTs - config.startLeadMs,
    seed: 1,
  });
  if (stage === "full") attachMirror(session, markets, config.queueModel);
  await session.start();
  // The ablation's one liberty: the tracker drops what the feed delivers, so nothing downstream runs.
  if (stage === "exchange") session.tracker.onEvent = () => {};
  for (const rec of records) {
    await session.pump.advanceTo(Math.max(rec.recvTs, session.clock.now()));
    session.marketFrame(rec.frame as unknown as Record<string, unknown>);
  }
  const placed = session.exchange.counts.place;
  await session.finish();
  return { frames: session.counters.frames, placed };
}
