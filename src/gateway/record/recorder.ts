import { mkdir } from "node:fs/promises";
import type { Writable } from "node:stream";
import type { Clock } from "../../core/clock.js";
import { LiveClock } from "../../core/live-clock.js";
import type { Logger } from "../../observability/logger.js";
import { GatewayClient } from "../client.js";
import type { DroppedPush } from "../client-listeners.js";
import { total } from "../counters.js";
import type { GatewayFatalError } from "../errors.js";
import { MarketDataFeed } from "../market-data-feed.js";
import type { GatewayClientOptions, Revealable } from "../options.js";
import { type MarketChannel, PLATFORM_STATUS_ID } from "../types.js";
import type { RejectedIds } from "../waiters.js";
import { ConditionFollower } from "./condition-follower.js";
import type { RecordWriteError } from "./errors.js";
import { LifecycleCarry } from "./lifecycle-carry.js";
import { followMissedPrints, MissedPrints } from "./missed-prints.js";
import { DEFAULT_MAX_PENDING_BYTES, RotatingWriter, type RotationPolicy } from "./rotating-writer.js";
import { type StatusReadCounts, StatusReads, type StatusSource } from "./status-reads.js";

/** The channels subscribed with the recorded token ids. */
export const TOKEN_CHANNELS = [
  "token_book",
  "token_trade_matches",
  "token_trade_settlements",
  "token_ohlc",
] as const satisfies readonly MarketChannel[];

/**
 * The channels a recording may hold: the token channels, condition_lifecycle of the tokens'
 * markets (their conditionIds learned from the tokens' own frames: ConditionFollower) and
 * system/platform_status.
 */
export const RECORDABLE_CHANNELS = [
  ...TOKEN_CHANNELS,
  "condition_lifecycle",
  "system",
] as const satisfies readonly MarketChannel[];
export type RecordableChannel = (typeof RECORDABLE_CHANNELS)[number];

/**
 * Books and trade prints (what the backtest needs to rebuild books and to drive fill models: a
 * resting quote fills when trades print through it), and the markets' lifecycle and the platform
 * status, which the replay acts on (src/backtest/sim/lifecycle.ts: a pause or a status makes the
 * venue refuse placements, a resolution's payouts mark the positions, a freeze stops the engine).
 */
export const DEFAULT_RECORD_CHANNELS: readonly RecordableChannel[] = [
  "token_book",
  "token_trade_matches",
  "condition_lifecycle",
  "system",
];

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
  /**
   * Registers the listener of a stop asked for again once `signal` has aborted (a second or third
   * SIGINT or SIGTERM in `mm record`): the first repeat is logged at warn with what is still to be
   * written (closing goes on, bounded by `drainIdleMs`); the next gives up on the drain at once,
   * as `drainIdleMs` without progress does (`drainAbandoned`, its details naming the signal).
   */
  readonly onStopAgain?: (listener: (signal: string) => void) => void;
  /** Receive timestamps, rotation ages and the gateway's timers; default the wall clock. */
  readonly clock?: Clock;
  /** What recvTs continues on after a large step back of `clock` (RecvClamp); default performance.now. */
  readonly monotonic?: () => number;
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
  /**
   * How long closing waits for a disk that takes nothing at all, ms, before giving up on the
   * frames it has not written (summary.drainAbandoned); default DEFAULT_DRAIN_IDLE_MS.
   */
  readonly drainIdleMs?: number;
  /** Where a file's compressed bytes go; default the file itself (tests pass a disk that stalls). */
  readonly openSink?: (path: string) => Writable;
  /**
   * Where the markets' and the platform's current statuses are read (REST) each time their
   * condition_lifecycle or system subscription is (re)accepted: written into the recording as
   * `market_status` / `platform_status` frames with sid "rest" (StatusReads). Without it, a status
   * that changed while the socket was down is missing from the recording.
   */
  readonly statusSource?: StatusSource;
  /** Called once the subscriptions are answered. */
  readonly onSubscribed?: (accepted: number, rejected: readonly RejectedIds[]) => void;
}

/** What a recording did. */
export interface RecordSummary {
  readonly files: readonly string[];
  /**
   * Frames handed to the files' gzip streams: all in the files once they closed, unless writing
   * failed (see `writeError`) or closing gave up (`drainAbandoned` says how many may be missing).
   */
  readonly frames: number;
  /**
   * Frames written at the head of each rotated file (not in `frames`): the last lifecycle frame
   * (and resolution) recorded for each market and the platform before it, marked `"sid": "carry"`,
   * so that the file replays alone (LifecycleCarry).
   */
  readonly carried: number;
  readonly reconnects: number;
  /**
   * Stretches of a token's trade prints lost to a reconnect, a subscription the server dropped or a
   * refused subscribe, written as `prints_missed` frames (MissedPrints; one still open at the stop
   * ends there); 0 when token_trade_matches is not recorded.
   * Only those in the files: a mark refused by a writer that had failed (a stop for a stalled or
   * failed disk during an outage) is not counted.
   */
  readonly printsMissed: number;
  /**
   * Frames counted malformed. Those that failed an event's validation (a missing or bad field, an
   * unknown type) are recorded as they arrived, for the replay's parser to refuse again; those
   * counted in `malformedUnrecorded` are not in the files.
   */
  readonly malformed: number;
  /**
   * Of `malformed`, the frames that could not be recorded: not JSON, not a JSON object, or without
   * a string `type` (a record's frame is an object with a type; the replay could do nothing with
   * them). Counted, never written. A frame with an `error` object and no type is no such frame:
   * it is an error reply (GatewayConnection), as the gateway reads it.
   */
  readonly malformedUnrecorded: number;
  /**
   * Valid pushes of a subscription we do not hold, dropped by the gateway client and never written:
   * of a sid whose unsubscribe went unanswered (a subscription the server dropped from its list,
   * still pushing: its ids have a new sid) or of an id no longer wanted (unsubscribed, refused for
   * good). The client's counters.dropped `stray_sid` and `unsolicited`.
   */
  readonly strays: number;
  /** Markets (conditionIds) whose condition_lifecycle was subscribed; 0 when it was not recorded. */
  readonly conditions: number;
  /**
   * The statuses read over REST at each (re)subscribe of condition_lifecycle and system: how many
   * were recorded, failed (nothing recorded for them) or were superseded by a push; all 0 without
   * a statusSource.
   */
  readonly statusReads: StatusReadCounts;
  /** Ids the server refused: every final refusal, and the first of each run of retried ones. */
  readonly rejected: readonly RejectedIds[];
  /** Set when the gateway closed for good (revoked key, …): the recording stopped early. */
  readonly fatal?: GatewayFatalError;
  /**
   * Frames whose recvTs is not their wall time because the wall clock stepped back: held at the
   * previous frame's (a step of up to 1 s), or continued from it on the monotonic clock (larger).
   */
  readonly recvTsClamped: number;
  /** The largest distance a recvTs was raised above its wall time, ms (0: the clock never went back). */
  readonly clockStepBackMs: number;
  /**
   * Set when writing failed: a disk error (disk full, permissions), or RecordWriteError
   * `write_stalled` when the disk fell `maxPendingBytes` behind. The recording stopped there.
   * After a stall every frame counted in `frames` is in the files (they are written once the disk
   * takes them); after a disk error the frames of the batch that failed (up to 64 KiB of JSON) are
   * counted but may be missing.
   */
  readonly writeError?: unknown;
  /**
   * Set when closing gave up on a disk that took nothing for `drainIdleMs` (RecordWriteError
   * `drain_abandoned`; details: the file, and the frames and bytes not confirmed written, which
   * may be missing from it). Also `writeError` when nothing had failed before.
   */
  readonly drainAbandoned?: RecordWriteError;
}

/** The malformed reasons (GatewayConnection) of frames dropped before they reach onFrame. */
const UNRECORDABLE = ["not_json", "not_object", "missing_type"] as const;
/** The dropped reasons (GatewayClient onFrame) of pushes not written: not ours. */
const STRAYS = ["stray_sid", "unsolicited"] as const satisfies readonly DroppedPush[];

/**
 * 30 s: a disk that answers at all answers within that (a busy NFS server, a slow USB stick); one
 * that takes nothing for that long is taken for dead, and `mm record` exits (1) rather than hang,
 * so that a supervisor restarts it.
 */
export const DEFAULT_DRAIN_IDLE_MS = 30_000;

/**
 * Records /ws/market: subscribes `channels` for `tokens` (condition_lifecycle for the tokens'
 * markets, once a token's first frame names its conditionId; system for platform_status) and
 * writes every event frame, as received, with its local receive time, into rotating gzip JSON Lines files in `outDir`
 * (RotatingWriter). A BookTracker runs alongside (MarketDataFeed), so a sequence gap, a crossed
 * book or a reconnect triggers get_book_snapshot and the fresh snapshot lands in the file: a
 * replay heals where the live feed healed. Resolves when `signal` aborts (after closing the
 * current file), when the gateway closes for good (`fatal` set) or when writing fails
 * (`writeError` set; logged at once, then the queued frames are written and the file closed).
 * Closing waits for the disk only while it makes progress: one that takes nothing for
 * `drainIdleMs` is given up on (`drainAbandoned`), so that a hung disk cannot hold it for ever.
 * recvTs never goes back within the recording (RecvClamp): when the wall clock steps back by up
 * to 1 s, frames take the last stamp until it catches up; by more, recvTs continues from the last
 * stamp on the monotonic clock, keeping the frames' intervals (counted in `recvTsClamped`, warned
 * once per step with its size).
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
  const channels = opts.channels ?? DEFAULT_RECORD_CHANNELS;
  const drainIdleMs = opts.drainIdleMs ?? DEFAULT_DRAIN_IDLE_MS;
  const writer = new RotatingWriter({
    dir: opts.outDir,
    clock,
    policy: opts.rotate,
    maxPendingBytes: opts.maxPendingBytes ?? DEFAULT_MAX_PENDING_BYTES,
    drainIdleMs,
    ...(opts.openSink === undefined ? {} : { openSink: opts.openSink }),
    onFailure: (err) => {
      // Said now, not at exit: closing waits for a stalled disk to take the queued frames.
      opts.logger?.error({ err }, "recording stopped: writing failed");
      stop(undefined);
    },
    onClockStepBack: ({ stepMs, continued }) =>
      opts.logger?.warn(
        { stepMs },
        continued
          ? "the wall clock stepped back by more than 1 s: recvTs continues from the last frame's on the monotonic clock, ahead of the wall clock by about stepMs until the wall clock catches up"
          : "the wall clock stepped back: recvTs held at the last frame's until it catches up",
      ),
    ...(opts.monotonic === undefined ? {} : { monotonic: opts.monotonic }),
    // A new file begins mid-stream: a fresh snapshot of every book makes it replayable alone (a
    // replay quotes a token only from a whole book). A token not subscribed is not asked for.
    onRotated: () => {
      if (channels.includes("token_book")) for (const t of opts.tokens) client.requestBookSnapshot(t);
    },
    // And the lifecycle recorded so far heads it: a pause or a resolution of an earlier file.
    ...(channels.includes("condition_lifecycle") || channels.includes("system")
      ? { carry: new LifecycleCarry() }
      : {}),
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
  const conditions = new ConditionFollower(client, opts.tokens);
  if (channels.includes("condition_lifecycle")) client.onEvent((e) => conditions.see(e));
  // After every (re)connect the pushes resume with changes only: what changed meanwhile is read.
  const reads =
    opts.statusSource === undefined
      ? undefined
      : new StatusReads({
          source: opts.statusSource,
          clock,
          logger: opts.logger,
          write: (frame) => writer.write({ recvTs: clock.now(), frame }),
        });
  const missed = channels.includes("token_trade_matches")
    ? new MissedPrints({ client, clock, write: (frame) => writer.write({ recvTs: clock.now(), frame }) })
    : undefined;
  if (missed !== undefined) followMissedPrints(client, missed);
  if (reads !== undefined) {
    client.onAccepted((channel, ids) => reads.accepted(channel, ids));
    client.onEvent((e) => reads.seen(e));
  }
  let repeats = 0;
  opts.onStopAgain?.((signal) => {
    if (++repeats > 1) return writer.abandonDrain(signal);
    const { file, frames, bytes } = writer.atRisk;
    opts.logger?.warn(
      { signal, file, framesPending: frames, bytesPending: bytes, drainIdleMs },
      "stop asked again: still writing the frames received to disk (framesPending not confirmed written); " +
        "closing gives up by itself once the disk takes nothing for drainIdleMs; one more signal gives up now, " +
        "and those frames may be missing",
    );
  });
  if (opts.signal.aborted) stop(undefined);
  opts.signal.addEventListener("abort", () => stop(undefined), { once: true });
  client.onFatal((err) => stop(err));
  const warnNoBook = noBookWarner(opts.logger);
  client.onFrame((frame, recvTs, _link, dropped) => {
    // A push of a subscription we do not hold (strays): the live client drops it, and recorded it
    // would replay as ours (a print twice, under the old sid and the new one). Counted, not written.
    if (dropped !== undefined) return;
    // Refused once the writer has stopped (onFailure already stops the recording).
    writer.write({ recvTs, frame: frame as { type: string } });
    warnNoBook(frame);
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
    let accepted = 0;
    for (const channel of channels) {
      // condition_lifecycle follows the tokens' first frames (ConditionFollower, above).
      if (channel === "condition_lifecycle") continue;
      const out =
        channel === "token_book"
          ? await feed.subscribeBooks(opts.tokens)
          : channel === "system"
            ? await client.subscribe("system", [PLATFORM_STATUS_ID])
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
  reads?.stop();
  // Before the writer closes: a token whose prints had not resumed yet is marked up to now.
  missed?.stop();
  clock.cancelTimer(flushTimer);
  await feed.close();
  // Held while closing too: the drain's deadline is a LiveClock timer (unref'd), and a stream that
  // waits on something outside the event loop would otherwise let the process end mid-close, exit 0.
  await writer.close();
  clearInterval(hold);
  const c = client.counters;
  return {
    files: writer.files,
    frames: writer.frames,
    carried: writer.carried,
    reconnects: c.reconnects,
    printsMissed: missed?.written ?? 0,
    malformed: total(c.malformed),
    malformedUnrecorded: UNRECORDABLE.reduce((n, reason) => n + (c.malformed[reason] ?? 0), 0),
    strays: STRAYS.reduce((n, reason) => n + (c.dropped[reason] ?? 0), 0),
    conditions: conditions.conditions.length,
    statusReads: reads?.counts ?? { recorded: 0, failed: 0, superseded: 0 },
    rejected,
    recvTsClamped: writer.clockStepBacks.frames,
    clockStepBackMs: writer.clockStepBacks.maxStepMs,
    ...(fatal === undefined ? {} : { fatal }),
    ...(writer.failure === undefined ? {} : { writeError: writer.failure }),
    ...(writer.abandoned === undefined ? {} : { drainAbandoned: writer.abandoned }),
  };
}

/**
 * Warns once per token whose snapshot the exchange refuses (book_snapshot_failed, e.g.
 * `unknown_token`): a mistyped token id would otherwise be recorded as failures, silently, for hours.
 */
function noBookWarner(logger: Logger | undefined): (frame: unknown) => void {
  const warned = new Set<string>();
  return (frame) => {
    const f = frame as { type?: unknown; data?: { tokenId?: unknown; reason?: unknown } };
    if (f.type !== "book_snapshot_failed" || typeof f.data?.tokenId !== "string") return;
    const tokenId = f.data.tokenId;
    if (warned.has(tokenId)) return;
    warned.add(tokenId);
    logger?.warn(
      { tokenId, reason: f.data.reason },
      "no book for token: the exchange refuses its snapshot (book_snapshot_failed); check the id " +
        "(GET /api/markets/{slug} lists yesTokenId and noTokenId); retrying, and recording what arrives",
    );
  };
}
