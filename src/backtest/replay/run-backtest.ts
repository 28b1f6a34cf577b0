import { basename } from "node:path";
import type { EngineEvent } from "../../engine/engine-events.js";
import type { Logger } from "../../observability/logger.js";
import { firstRecord, type RecordedFrame, readRecordedBatches } from "../../recorded/format.js";
import { BacktestError } from "../errors.js";
import { units } from "../report/decimal.js";
import { Timeline, type TimelineData, type TimelineOptions } from "../report/html/timeline.js";
import { Recorder } from "../report/recorder.js";
import { buildRunSummary, sortedCounts } from "../report/summary.js";
import { BOT } from "../sim/actors.js";
import type { BacktestFill } from "../sim/bot-fills.js";
import { latencySummary } from "../sim/latency.js";
import { buildMarkets } from "../sim/markets.js";
import { SimSession } from "../sim/session.js";
import { attachMirror } from "./attach-mirror.js";
import type { CrowdMirror } from "./crowd-mirror.js";
import { dataFiles } from "./data-files.js";
import { DataGaps } from "./data-gaps.js";
import { type LazyBatchStream, mergeLazyBatchesByRecvTs } from "./merge.js";
import { PrintsMissed } from "./prints-missed.js";
import { queueModelSummary } from "./queue-model-config.js";
import type { ReplayConfig } from "./replay-config.js";
import { scanTokens } from "./scan-tokens.js";

/** What runBacktest needs. */
export interface BacktestOptions {
  readonly config: ReplayConfig;
  /** A recorded file, or a directory of *.jsonl.gz (e.g. an `mm import` output). */
  readonly data: string;
  /** Seeds the venue's ids (the replay itself draws no random numbers). Default 1. */
  readonly seed?: number;
  /** The engine's logger; default silent. */
  readonly logger?: Logger;
  /** Each fill of the bot, as the venue settled it (tests, custom reports). */
  readonly onFill?: (fill: BacktestFill) => void;
  readonly onEngineEvent?: (e: EngineEvent) => void;
  /** Called every `progressEvery` frames (default 10,000) with the frames done and the clock time. */
  readonly onProgress?: (frames: number, clockMs: number) => void;
  readonly progressEvery?: number;
  /** Sample the time series of the HTML report (off by default: the summary does not need them). */
  readonly timeline?: TimelineOptions;
  /**
   * Called once per file that is cut short (no gzip end: a recorder killed while writing it): its
   * complete lines are replayed, its partial last line is dropped, and it is listed in the
   * summary's `data.truncatedFiles`. Also logged as a warning.
   */
  readonly onTruncated?: (file: string) => void;
  /**
   * Called with the simulation once it is built, before the engine starts (tests: the bot's
   * tracked books against the exchange's at the end of the run; nothing is read on the way).
   */
  readonly onSession?: (session: SimSession) => void;
}

/** The outcome of a replay. */
export interface BacktestResult {
  /** The JSON summary (deterministic: same data, config and seed → same bytes). */
  readonly summary: ReplaySummary;
  /** The bot's wallet at the venue at the start and at the end, micro-units (reconciliation). */
  readonly wallet: {
    readonly start: { readonly usdc: bigint; readonly shares: bigint };
    readonly end: { readonly usdc: bigint; readonly shares: ReadonlyMap<string, bigint> };
  };
  /** Frames read (also in the summary). */
  readonly frames: number;
  /** The HTML report's series, when `timeline` was asked for. */
  readonly timeline?: TimelineData;
}

/** The replay's JSON summary. */
export type ReplaySummary = ReturnType<typeof replaySummary>;

/**
 * Replays recorded /ws/market frames through the unchanged engine against the simulated venue
 * (DESIGN: backtest mode). The files are streamed and merged by receive time (a file is opened
 * when its first record is next and closed when used up, so only files overlapping in time hold a
 * batch in memory); a file cut short is replayed up to its last complete line. The SimClock moves to each frame's recvTs; the frame acts at the exchange (its book,
 * the market's mirrored liquidity — see CrowdMirror for the fill rules) and reaches the engine's
 * BookTracker `latency.feedMs` later, through the gateway's parser. Orders go through the engine's
 * own queue, risk guard and reconciler to the VenueExchange (`entryMs` / `responseMs`).
 * At the end the figures are frozen at the last frame's time and the engine is stopped.
 * @example
 * const { summary } = await runBacktest({ config: parseReplayConfig([json]), data: "pm.jsonl.gz", seed: 1 });
 */
export async function runBacktest(opts: BacktestOptions): Promise<BacktestResult> {
  const { config } = opts;
  const files = await dataFiles(opts.data);
  const truncated = new Set<string>();
  const read = {
    onTruncated: (file: string) => {
      if (truncated.has(file)) return; // the token scan and the replay both read it
      truncated.add(file);
      opts.logger?.warn({ file }, "recorded file cut short: replaying it up to its last complete line");
      opts.onTruncated?.(file);
    },
  };
  const tokens = config.tokens ?? (await scanTokens(files, config.marketDefaults, read));
  if (tokens.length === 0)
    throw new BacktestError("data_empty", "the data has no token_book frame", { files });
  const markets = buildMarkets(tokens);
  // Batches of records (one await per ~256 KiB of text, not per record), merged by receive time.
  const it = mergeLazyBatchesByRecvTs(await lazyStreams(files, read))[Symbol.asyncIterator]();
  try {
    return await replay(opts, files, truncated, markets, it);
  } finally {
    await it.return(undefined); // after a failure, the open files are closed now, not at GC
  }
}

// Each file that has a record, as a stream opened when the merge needs it: only its first record
// is read here.
async function lazyStreams(
  files: readonly string[],
  read: { onTruncated: (file: string) => void },
): Promise<LazyBatchStream[]> {
  const out: LazyBatchStream[] = [];
  for (const file of files) {
    const first = await firstRecord(file, read);
    if (first !== undefined)
      out.push({ firstRecvTs: first.recvTs, open: () => readRecordedBatches(file, read) });
  }
  return out;
}

// The replay proper, over the merged records; `truncated` fills up as the files are read.
async function replay(
  opts: BacktestOptions,
  files: readonly string[],
  truncated: ReadonlySet<string>,
  markets: ReturnType<typeof buildMarkets>,
  it: AsyncIterator<RecordedFrame[]>,
): Promise<BacktestResult> {
  const { config } = opts;
  const seed = opts.seed ?? 1;
  let next = await it.next();
  const first = next.done === true ? undefined : next.value[0];
  if (first === undefined) throw new BacktestError("data_empty", "the data has no record", { files });
  const startMs = first.recvTs;
  const session = new SimSession({
    settings: config,
    markets,
    startMs: startMs - config.startLeadMs,
    seed,
    ...(opts.logger === undefined ? {} : { logger: opts.logger }),
    ...(opts.onEngineEvent === undefined ? {} : { onEngineEvent: opts.onEngineEvent }),
  });
  const { bot, mirror } = attachMirror(session, markets, config.queueModel);
  const recorder = new Recorder(session, bot, config.report, startMs);
  if (opts.onFill !== undefined) session.filled.push(opts.onFill);
  opts.onSession?.(session);
  const timeline =
    opts.timeline === undefined ? undefined : new Timeline(session, bot, recorder, startMs, opts.timeline);

  // A token the config names must be booked by the data; the scan finds only booked ones.
  const booked = config.tokens === undefined ? undefined : new Set<string>();
  if (booked !== undefined) session.bookApplied.push((t) => booked.add(t));
  await session.start();
  let endMs = startMs;
  const gaps = new DataGaps(config.report.dataGapMs);
  const gapMs = gaps.thresholdMs;
  const every = Math.max(1, opts.progressEvery ?? 10_000);
  let frames = 0;
  const missed = new PrintsMissed();
  while (next.done !== true) {
    for (const rec of next.value) {
      if (missed.take(rec.frame)) continue; // the recorder's mark, not a frame of the market
      // A carried frame repeating what the replay acted on moves neither the clock nor the gaps:
      // it has the recvTs of its file's first frame, which may be a skipped mark after a silence.
      if (session.skipsCarried(rec.frame)) continue;
      const t = Math.max(rec.recvTs, session.clock.now());
      await session.pump.advanceTo(t);
      session.marketFrame(rec.frame);
      if (t - endMs >= gapMs) gaps.add(endMs, t); // endMs: the previous frame's time
      endMs = t;
      if (++frames % every === 0) opts.onProgress?.(frames, t);
    }
    next = await it.next();
  }
  await session.pump.advanceTo(endMs);
  const figures = recorder.close(endMs);
  timeline?.close(endMs);
  const stopped = await session.finish();
  const run = buildRunSummary(figures, markets.tokens, session.exchange.counts);
  const cut = files.filter((f) => truncated.has(f));
  const unbooked = markets.tokens.filter((t) => booked !== undefined && !booked.has(t.tokenId));
  const unbookedIds = unbooked.map((t) => t.tokenId);
  if (unbookedIds.length > 0)
    opts.logger?.warn({ tokenIds: unbookedIds }, "configured tokens have no token_book frame in the data");
  // Booked by deltas alone (a rotated file replayed by itself): no snapshot was ever served, so the
  // bot never synced and never quoted the token (SimSession#serveSnapshot).
  const unsynced = markets.tokens
    .map((t) => t.tokenId)
    .filter((t) => !unbookedIds.includes(t) && !session.books.whole(t));
  const summary = replaySummary(
    opts,
    seed,
    files,
    { cut, unbooked: unbookedIds, unsynced, gaps, missed },
    session,
    mirror,
    run,
    stopped.openOrders,
  );
  const shares = new Map(session.venue.positions(BOT).map((p) => [p.tokenId, p.balance]));
  return {
    summary,
    wallet: {
      start: { usdc: config.wallet.usdcMicro, shares: config.wallet.sharesMicro },
      end: { usdc: session.venue.balances(BOT).usdc.balance, shares },
    },
    frames: session.counters.frames,
    ...(timeline === undefined ? {} : { timeline: timeline.data() }),
  };
}

function replaySummary(
  opts: BacktestOptions,
  seed: number,
  files: readonly string[],
  holes: {
    readonly cut: readonly string[];
    readonly unbooked: readonly string[];
    readonly unsynced: readonly string[];
    readonly gaps: DataGaps;
    readonly missed: PrintsMissed;
  },
  session: SimSession,
  mirror: CrowdMirror,
  run: ReturnType<typeof buildRunSummary>,
  openAtEnd: number,
) {
  const c = session.counters;
  const m = mirror.counters;
  const printsMissed = holes.missed.summary();
  const { latency } = opts.config;
  return {
    mm: "backtest-summary",
    version: 1,
    kind: "replay",
    seed,
    strategy: opts.config.strategyRaw,
    latency: latencySummary(latency),
    data: {
      files: files.map((f) => basename(f)),
      frames: c.frames,
      book: c.book,
      trades: c.trades,
      lifecycle: c.lifecycle,
      other: c.other,
      rejected: sortedCounts(c.rejected),
      malformedAtExchange: session.books.malformed,
      snapshotsServed: c.snapshotsServed,
      // Recorded snapshots that restart their token's seq (a later import of the token in the same
      // directory): the bot resyncs to each as to a new subscription. Only when there are any, so
      // that data of one sequence per token gives the summary it always gave.
      ...(c.resubscribed === 0 ? {} : { resubscribed: c.resubscribed }),
      // Carried lifecycle frames that told the replay a state it did not know (a rotated file of
      // `mm record` replayed alone: a pause or a resolution of an earlier file). Only when there
      // are any: replaying the whole directory, they repeat what it knows and act on nothing.
      ...(c.carried === 0 ? {} : { carried: c.carried }),
      // Silences between consecutive frames of report.dataGapMs or more: a book left stale by one
      // stays in the exchange's book (and the mirror) until the data moves it.
      gaps: holes.gaps.summary(),
      // Stretches in which a token's prints were lost to the recorder (a reconnect, a dropped or
      // refused subscription: any `via`), absent when none.
      ...(printsMissed === undefined ? {} : { printsMissed }),
      // Only when there are any, so that complete data gives the summary it always gave.
      ...(holes.cut.length === 0 ? {} : { truncatedFiles: holes.cut.map((f) => basename(f)) }),
      // Configured tokens the data never booked (a typo in an id): their figures are all zero.
      ...(holes.unbooked.length === 0 ? {} : { tokensWithoutBook: [...holes.unbooked] }),
      // Tokens whose data never gave a whole book (a snapshot): never quoted.
      ...(holes.unsynced.length === 0 ? {} : { tokensWithoutSnapshot: [...holes.unsynced] }),
    },
    ...run,
    mirror: {
      placed: m.placed,
      amended: m.amended,
      cancelled: m.cancelled,
      inferredTrades: m.inferredTrades,
      inferredQuantity: units(m.inferredQty, 6),
      rejected: sortedCounts(m.rejected),
      // Only when there are any, so that data whose book never crosses gives the summary it gave.
      ...(m.heldCrossed === 0 ? {} : { heldCrossed: m.heldCrossed }),
      ...queueModelSummary(opts.config.queueModel, m),
    },
    end: { openOrders: openAtEnd },
  };
}
