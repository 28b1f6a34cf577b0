import { mkdir } from "node:fs/promises";
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
import { RotatingWriter, type RotationPolicy } from "./rotating-writer.js";

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
  /** Ids the server refused. */
  readonly rejected: readonly RejectedIds[];
  /** Set when the gateway closed for good (revoked key, …): the recording stopped early. */
  readonly fatal?: GatewayFatalError;
  /** Set when writing failed (disk full, permissions). */
  readonly writeError?: unknown;
}

/**
 * Records /ws/market: subscribes `channels` for `tokens` and writes every event frame, as
 * received, with its local receive time, into rotating gzip JSON Lines files in `outDir`
 * (RotatingWriter). A BookTracker runs alongside (MarketDataFeed), so a sequence gap, a crossed
 * book or a reconnect triggers get_book_snapshot and the fresh snapshot lands in the file: a
 * replay heals where the live feed healed. Resolves when `signal` aborts (after closing the
 * current file) or when the gateway closes for good (`fatal` set).
 * @example
 * const ac = new AbortController();
 * process.once("SIGINT", () => ac.abort());
 * const summary = await record({ url, apiKey, tokens, outDir: "rec", rotate: { maxBytes: 100e6 }, signal: ac.signal });
 */
export async function record(opts: RecordOptions): Promise<RecordSummary> {
  const clock = opts.clock ?? new LiveClock();
  await mkdir(opts.outDir, { recursive: true });
  const writer = new RotatingWriter({ dir: opts.outDir, clock, policy: opts.rotate });
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
  let stop: (fatal: GatewayFatalError | undefined) => void = () => undefined;
  const stopped = new Promise<GatewayFatalError | undefined>((resolve) => {
    stop = resolve;
  });
  if (opts.signal.aborted) stop(undefined);
  opts.signal.addEventListener("abort", () => stop(undefined), { once: true });
  client.onFatal((err) => stop(err));
  client.onFrame((frame, recvTs) => {
    if (writer.failure !== undefined) return stop(undefined); // the disk refused: no point going on
    void writer.write({ recvTs, frame: frame as { type: string } });
  });
  const rejected: RejectedIds[] = [];
  client.onRejected((r) => rejected.push(r));

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
    ...(fatal === undefined ? {} : { fatal }),
    ...(writer.failure === undefined ? {} : { writeError: writer.failure }),
  };
}
