import { mkdir } from "node:fs/promises";
import type { Writable } from "node:stream";
import type { Clock } from "../../core/clock.js";
import { LiveClock } from "../../core/live-clock.js";
import type { Logger } from "../../observability/logger.js";
import { GatewayClient } from "../client.js";
import { total } from "../counters.js";
import type { GatewayFatalError } from "../errors.js";
import { MarketDataFeed } from "../market-data-feed.js";
import type { GatewayClientOptions, Revealable } from "../options.js";
import type { MarketChannel } from "../types.js";
import type { RejectedIds } from "../waiters.js";
import { DEFAULT_MAX_PENDING_BYTES, RotatingWriter, type RotationPolicy } from "./rotating-writer.js";

/** The token channels a recording may hold. */
export const RECORDABLE_CHANNELS = [
  "token_book",
  "token_trade_matches",
  "token_trade_settlements",
  "token_ohlc",
] as const satisfies readonly MarketChannel[];
export type RecordableChannel = (typeof RECORDABLE_CHANNELS)[number];

/**
 * Books and trade prints: what the backtest needs to rebuild books and to drive fill models
 * (a resting quote fills when trades print through it).
 */
export const DEFAULT_RECORD_CHANNELS: readonly RecordableChannel[] = ["token_book", "token_trade_matches"];

export interface RecordOptions {
  /** Base URL of the gateways ({ws_url}). */
  readonly url: string;
  readonly apiKey: string | Revealable;
  readonly userWallet?: string | undefined;
  readonly tokens: readonly string[];
  readonly channels?: readonly RecordableChannel[];
  readonly outDir: string;
  readonly rotate: RotationPolicy;
  /** Stops the recording (SIGINT/SIGTERM in `mm record`). */
  readonly signal: AbortSignal;
  /** Receive timestamps, rotation ages and the gateway's timers; default the wall clock. */
  readonly clock?: Clock;
  readonly random?: () => number;
  readonly logger?: Logger | undefined;
  readonly timing?: GatewayClientOptions["timing"];
  /** How often the frames so far are put into the file, ms (what a killed recorder loses); default 1,000. */
  readonly flushEveryMs?: number;
  /**
   * Frames waiting for a slow disk (characters of JSON) beyond which the recording stops with
   * RecordWriteError `write_stalled` (summary.writeError); default 64 MiB.
   */
  readonly maxPendingBytes?: number;
  /** Where a file's compressed bytes go; default the file itself (tests pass a disk that stalls). */
  readonly openSink?: (path: string) => Writable;
  /** Called once the subscriptions are answered. */
  readonly onSubscribed?: (accepted: number, rejected: readonly RejectedIds[]) => void;
}

/** What a recording did. */
export interface RecordSummary {
  readonly files: readonly string[];
  readonly frames: number;
  readonly reconnects: number;
  /** Frames that failed validation (recorded anyway: the file holds what arrived). */
  readonly malformed: number;
  /** Ids the server refused: every final refusal, and the first of each run of retried ones. */
  readonly rejected: readonly RejectedIds[];
  /** Set when the gateway closed for good (revoked key, …): the recording stopped early. */
  readonly fatal?: GatewayFatalError;
  /** Frames whose recvTs was raised to the previous frame's because the wall clock stepped back. */
  readonly recvTsClamped: number;
  /** The largest such step back, ms (0 when the clock never went back). */
  readonly clockStepBackMs: number;
  /**
   * Set when writing failed: a disk error (disk full, permissions), or RecordWriteError
   * `write_stalled` when the disk fell `maxPendingBytes` behind. The recording stopped there.
   * After a stall every frame counted in `frames` is in the files (they are written once the disk
   * takes them); after a disk error the frames of the batch that failed (up to 64 KiB of JSON) are
   * counted but may be missing.
   */
  readonly writeError?: unknown;
}

/**
 * Records /ws/market: subscribes `channels` for `tokens` and writes every event frame, as
 * received, with its local receive time, into rotating gzip JSON Lines files in `outDir`
 * (RotatingWriter). A BookTracker runs alongside (MarketDataFeed), so a sequence gap, a crossed
 * book or a reconnect triggers get_book_snapshot and the fresh snapshot lands in the file: a
 * replay heals where the live feed healed. Resolves when `signal` aborts (after closing the
 * current file), when the gateway closes for good (`fatal` set) or when writing fails
 * (`writeError` set; logged at once, then the queued frames are written and the file closed).
 * recvTs never goes back within the recording: when the wall clock steps back, frames take the
 * last stamp until it catches up (counted in `recvTsClamped`, warned once per step).
 * @example
 * const ac = new AbortController();
 * process.once("SIGINT", () => ac.abort());
 * const summary = await record({ url, apiKey, tokens, outDir: "rec", rotate: { maxBytes: 100e6 }, signal: ac.signal });
 */
export async function record(opts: RecordOptions): Promise<RecordSummary> {
  const clock = opts.clock ?? new LiveClock();
  await mkdir(opts.outDir, { recursive: true });
  let stop: (fatal: GatewayFatalError | undefined) => void = () => undefined;
  const stopped = new Promise<GatewayFatalError | undefined>((resolve) => {
    stop = resolve;
  });
  const writer = new RotatingWriter({
    dir: opts.outDir,
    clock,
    policy: opts.rotate,
    maxPendingBytes: opts.maxPendingBytes ?? DEFAULT_MAX_PENDING_BYTES,
    ...(opts.openSink === undefined ? {} : { openSink: opts.openSink }),
    onFailure: (err) => {
      // Said now, not at exit: closing waits for a stalled disk to take the queued frames.
      opts.logger?.error({ err }, "recording stopped: writing failed");
      stop(undefined);
    },
    onClockStepBack: (stepMs) =>
      opts.logger?.warn(
        { stepMs },
        "the wall clock stepped back: recvTs held at the last frame's until it catches up",
      ),
  });
  const client = new GatewayClient({
    url: opts.url,
    gateway: "market",
    apiKey: opts.apiKey,
    userWallet: opts.userWallet,
    clock,
    ...(opts.random === undefined ? {} : { random: opts.random }),
    logger: opts.logger,
    ...(opts.timing === undefined ? {} : { timing: opts.timing }),
  });
  const feed = new MarketDataFeed({ client, clock });
  if (opts.signal.aborted) stop(undefined);
  opts.signal.addEventListener("abort", () => stop(undefined), { once: true });
  client.onFatal((err) => stop(err));
  client.onFrame((frame, recvTs) => {
    // Refused once the writer has stopped (onFailure already stops the recording).
    writer.write({ recvTs, frame: frame as { type: string } });
  });
  const rejected: RejectedIds[] = [];
  // A refusal retried every 30 s for days would grow this list without bound: its repeats are
  // counted by the client (subscriptionRefusals), only the first of a run is listed.
  client.onRejected((r) => {
    if (r.attempt === undefined || r.attempt === 1) rejected.push(r);
  });

  const flushEvery = opts.flushEveryMs ?? 1_000;
  let flushing = false; // a stalled disk must not pile flushes up behind each other
  let flushTimer = clock.setTimer(flushEvery, function tick() {
    if (!flushing) {
      flushing = true;
      void writer.flush().finally(() => {
        flushing = false;
      });
    }
    flushTimer = clock.setTimer(flushEvery, tick);
  });

  const subscribing = (async () => {
    await client.start();
    const channels = opts.channels ?? DEFAULT_RECORD_CHANNELS;
    let accepted = 0;
    for (const channel of channels) {
      const out =
        channel === "token_book"
          ? await feed.subscribeBooks(opts.tokens)
          : await client.subscribe(channel, opts.tokens);
      accepted += out.accepted.length;
    }
    opts.onSubscribed?.(accepted, rejected);
  })();
  subscribing.catch(() => undefined); // a fatal close or an abort reaches `stopped`

  // LiveClock timers are unref'd: while a reconnect back-off is pending there may be no socket
  // holding the event loop, and the process must not exit under a running recording.
  const hold = setInterval(() => undefined, 1 << 30);
  const fatal = await stopped;
  clearInterval(hold);
  clock.cancelTimer(flushTimer);
  await feed.close();
  await writer.close();
  const c = client.counters;
  return {
    files: writer.files,
    frames: writer.frames,
    reconnects: c.reconnects,
    malformed: total(c.malformed),
    rejected,
    recvTsClamped: writer.clockStepBacks.frames,
    clockStepBackMs: writer.clockStepBacks.maxStepMs,
    ...(fatal === undefined ? {} : { fatal }),
    ...(writer.failure === undefined ? {} : { writeError: writer.failure }),
  };
}
