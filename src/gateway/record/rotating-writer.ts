import { createWriteStream, existsSync } from "node:fs";
import { join } from "node:path";
import type { Writable } from "node:stream";
import type { Clock } from "../../core/clock.js";
import { type MarketFrame, type RecordedFrame, RecordedWriter, recordLine } from "../../recorded/format.js";
import { type DrainGiveUp, drainAbandoned, type RecordWriteError, writeStalled } from "./errors.js";
import { idleDeadline } from "./idle-deadline.js";
import { LineQueue } from "./line-queue.js";
import { bytesWritten, recordingFileName, recvTsOf, sizeOf } from "./record-files.js";
import { type ClockStepBack, type ClockStepBacks, RecvClamp } from "./recv-clamp.js";

export { recordingFileName } from "./record-files.js";

/** When to start a new file; either limit (or both) may be set. */
export interface RotationPolicy {
  /** Compressed size on disk, bytes. */
  readonly maxBytes?: number | undefined;
  /** Age of the file, ms (a file is rotated when the first frame after that age arrives). */
  readonly maxAgeMs?: number | undefined;
}

/**
 * What a rotated file starts with (LifecycleCarry): sees every frame accepted, in order, and gives
 * the frames to write at the head of a new file that follows the first `written` ones.
 */
export interface CarryState {
  accepted(frame: MarketFrame): void;
  heads(written: number): readonly MarketFrame[];
}

/** Options of RotatingWriter. */
export interface RotatingWriterOptions {
  readonly dir: string;
  /** File start times (names) and ages, continued on `monotonic` after a step back (see the class doc). */
  readonly clock: Clock;
  readonly policy: RotationPolicy;
  /** File name prefix; default "market". */
  readonly prefix?: string;
  /**
   * Frames waiting for the disk, in characters of JSON (bytes, for ASCII), beyond which the writer
   * stops with RecordWriteError `write_stalled`; default DEFAULT_MAX_PENDING_BYTES.
   */
  readonly maxPendingBytes?: number;
  /** Where a file's compressed bytes go; default the file, created exclusively. */
  readonly openSink?: (path: string) => Writable;
  /**
   * close() gives up on a disk that has taken nothing for this long, ms (checked every tenth of
   * it, on `clock`): the file is left without its gzip end and `abandoned` says what may be
   * missing. Default: close() waits as long as the disk takes.
   */
  readonly drainIdleMs?: number | undefined;
  /** Called once, when the writer stops: a disk error or a stall. */
  readonly onFailure?: (err: unknown) => void;
  /** Called once per step back of the frames' clock, with how far back (see RecvClamp). */
  readonly onClockStepBack?: (step: ClockStepBack) => void;
  /** Called when a file after the first is started (a rotation), with its path. */
  readonly onRotated?: (path: string) => void;
  /**
   * The state written at the head of each file after the first (before its first frame, at that
   * frame's recvTs), so that a file replays alone; not counted in `frames` (see `carried`).
   */
  readonly carry?: CarryState;
  /**
   * The monotonic clock a large step back continues recvTs and file times on (RecvClamp); default
   * performance.now.
   */
  readonly monotonic?: () => number;
}

/**
 * 64 MiB: at a busy market's ~100 frames/s of ~400 bytes, over 25 minutes of a disk that takes
 * nothing; a disk that slow is broken, and the recording had better stop and say so.
 */
export const DEFAULT_MAX_PENDING_BYTES = 64 * 1024 * 1024;

/** Every this many frames the file's size on disk is looked at (a stat, not a per-frame cost). */
const SIZE_CHECK_FRAMES = 64;

/**
 * Writes recorded frames (src/recorded/format.ts) into a series of gzip JSONL files in one
 * directory, starting a new file when the current one reaches `maxBytes` on disk or `maxAgeMs` of
 * age. A file is never overwritten (created exclusively).
 *
 * write() queues a frame and returns at once (the socket cannot wait); one loop writes the queue
 * in order, waiting for the file stream's back-pressure (LineQueue). The queue is bounded: a disk
 * that falls `maxPendingBytes` behind stops the writer with RecordWriteError `write_stalled`
 * (onFailure, failure), and write() refuses every frame from then on (returns false). The
 * recording stops there, loudly, rather than growing memory without bound or dropping frames
 * silently (a dropped book delta is a sequence gap that no snapshot in the file would heal);
 * the frames accepted before are still written once the disk takes them. A disk error (ENOSPC,
 * EACCES) stops it likewise; the frames still queued then cannot be written.
 *
 * recvTs never decreases across the writer's files (RecvClamp: a small step back of the wall clock
 * is held, a large one continued on the monotonic clock). File times (start times, the names, and
 * ages, for `maxAgeMs`) follow the same rule, on a RecvClamp of their own over `clock`: they never
 * go back, so names sort in recording order, and after a large step back a file still ages as time
 * passes, as its frames' recvTs do. On the bare wall clock (never going back) it would not age at
 * all until the clock caught up: a 1-hour step back with hourly rotation would make a 2-hour file.
 * flush() puts the frames so far into the file, bounding what a crash can lose; close() finishes
 * the current file so that it is a complete gzip stream. With `drainIdleMs`, close() does not wait
 * for ever on a disk that hangs (a dead NFS server): once the disk has taken nothing for that long
 * it gives up, destroys the file's stream and sets `abandoned` (RecordWriteError
 * `drain_abandoned`, naming the file and the frames not confirmed written). A disk that is slow
 * but answering keeps the wait going: progress is a line handed on, a flush or a rotation done,
 * or a byte written (a stream's `bytesWritten`, as fs.WriteStream has).
 */
export class RotatingWriter {
  readonly #dir: string;
  readonly #prefix: string;
  readonly #clock: Clock;
  readonly #policy: RotationPolicy;
  readonly #queue: LineQueue;
  readonly #openSink: ((path: string) => Writable) | undefined;
  readonly #onFailure: ((err: unknown) => void) | undefined;
  readonly #onRotated: ((path: string) => void) | undefined;
  readonly #carry: CarryState | undefined;
  readonly #drainIdleMs: number | undefined;
  readonly #recv: RecvClamp;
  readonly #files: string[] = [];
  #writer: RecordedWriter | undefined;
  /** The stream under the current file (or the one being closed): destroyed if the disk hangs. */
  #sink: Writable | undefined;
  #startedAt = 0;
  /**
   * File times: `clock` read as the recv clamp reads frames' times (not that clamp itself: the file
   * is read when a line reaches the disk, later than its frame's recvTs on a slow disk).
   */
  readonly #fileTime: RecvClamp;
  #seq = 0;
  #sinceCheck = 0;
  #frames = 0;
  /** Frames written at the heads of rotated files (CarryState), in no other count. */
  #carried = 0;
  /** Frames accepted by write(), and their characters. */
  #accepted = 0;
  #acceptedChars = 0;
  /** Characters of the frames handed to the files. */
  #chars = 0;
  /** Frames (and their characters) known to be on disk: up to the last sync flush or file close. */
  #safeFrames = 0;
  #safeChars = 0;
  /** Counts every step done (a line handed on, a flush, a rotation): the drain's progress. */
  #steps = 0;
  #failure: unknown;
  #abandoned: RecordWriteError | undefined;
  /** Resolves close()'s wait with a give-up (abandonDrain), while it waits. */
  #giveUp: ((cause: DrainGiveUp) => void) | undefined;
  #giveUpAsked: DrainGiveUp | undefined;
  #closed = false;
  /** A file operation failed (#diskFailed): `frames` counts only what was confirmed on disk. */
  #lost = false;
  /** The file whose open failed, if one did (the writer stops there: at most one). */
  #neverCreated: string | undefined;

  constructor(opts: RotatingWriterOptions) {
    this.#dir = opts.dir;
    this.#clock = opts.clock;
    this.#policy = opts.policy;
    this.#prefix = opts.prefix ?? "market";
    this.#queue = new LineQueue(
      { write: (line) => this.#write(line), flush: () => this.#flush() },
      opts.maxPendingBytes ?? DEFAULT_MAX_PENDING_BYTES,
      (err) => this.#diskFailed(err),
    );
    this.#openSink = opts.openSink;
    this.#onFailure = opts.onFailure;
    this.#onRotated = opts.onRotated;
    this.#carry = opts.carry;
    this.#drainIdleMs = opts.drainIdleMs;
    this.#recv = new RecvClamp({
      ...(opts.monotonic === undefined ? {} : { monotonic: opts.monotonic }),
      ...(opts.onClockStepBack === undefined ? {} : { onStepBack: opts.onClockStepBack }),
    });
    // No onStepBack: a step is reported once, by the frames' clamp.
    this.#fileTime = new RecvClamp(opts.monotonic === undefined ? {} : { monotonic: opts.monotonic });
  }

  /** Files started so far, in order (absolute when `dir` is), but one that could not be created. */
  get files(): readonly string[] {
    const never = this.#neverCreated;
    return never === undefined ? this.#files : this.#files.filter((f) => f !== never);
  }

  /**
   * Frames written; after a disk error (ENOSPC, EACCES…), only those confirmed on disk before it
   * (the last sync flush or file close): the others may be missing from the file.
   */
  get frames(): number {
    return this.#lost ? this.#safeFrames : this.#frames;
  }

  /** Frames written at the heads of rotated files (the `carry` option), not in `frames`. */
  get carried(): number {
    return this.#carried;
  }

  /** Characters of JSON queued and not yet handed to the file's gzip stream. */
  get pendingBytes(): number {
    return this.#queue.pending;
  }

  /** Frames whose recvTs was raised because the clock stepped back, and the largest raise. */
  get clockStepBacks(): ClockStepBacks {
    return this.#recv.stepBacks;
  }

  /**
   * Why the writer stopped (a disk error, RecordWriteError `write_stalled`, or `drain_abandoned`
   * when nothing failed before close() gave up), if it did.
   */
  get failure(): unknown {
    return this.#failure;
  }

  /** Set when close() gave up on a disk that took nothing for `drainIdleMs` (see the class doc). */
  get abandoned(): RecordWriteError | undefined {
    return this.#abandoned;
  }

  /**
   * Queues one frame, its recvTs raised if the clock stepped back (RecvClamp). False
   * when refused: the writer is closed or stopped, or this frame would put it over the limit
   * (which stops it).
   */
  write(rec: RecordedFrame): boolean {
    if (this.#closed || this.#failure !== undefined) return false;
    const line = recordLine({ recvTs: this.#recv.next(rec.recvTs), frame: rec.frame });
    if (this.#queue.push(line)) {
      this.#accepted++;
      this.#acceptedChars += line.length;
      this.#carry?.accepted(rec.frame);
      return true;
    }
    this.#fail(this.#stalled());
    return false;
  }

  /**
   * Puts every frame queued so far into the current file (a sync flush, RecordedWriter.flush):
   * a process killed after this settles loses none of them. Never rejects.
   */
  flush(): Promise<void> {
    return this.#queue.wait(true);
  }

  /**
   * Finishes the current file after the queued frames; later writes are refused. Never rejects;
   * with `drainIdleMs` it settles on a hung disk too (see `abandoned`).
   */
  async close(): Promise<void> {
    if (this.#abandoned !== undefined) return; // its drain may never end
    this.#closed = true;
    const drained = this.#drain().then(() => undefined);
    const idleMs = this.#drainIdleMs;
    const deadline =
      idleMs === undefined
        ? undefined
        : idleDeadline(this.#clock, idleMs, () => this.#steps + bytesWritten(this.#sink));
    const asked = new Promise<DrainGiveUp>((resolve) => {
      this.#giveUp = resolve;
    });
    if (this.#giveUpAsked !== undefined) this.#giveUp?.(this.#giveUpAsked);
    const gaveUp = await Promise.race([
      drained,
      asked,
      ...(deadline === undefined || idleMs === undefined ? [] : [deadline.expired.then(() => ({ idleMs }))]),
    ]);
    deadline?.cancel();
    this.#giveUp = undefined;
    if (gaveUp !== undefined) this.#abandon(gaveUp);
  }

  /**
   * Gives up on close()'s drain now (at once if it is under way, else as soon as close() begins),
   * as a disk idle for `drainIdleMs` does: `abandoned` names the frames not confirmed written.
   */
  abandonDrain(signal: string): void {
    this.#giveUpAsked ??= { signal };
    this.#giveUp?.(this.#giveUpAsked);
  }

  /** What a give-up now would report missing: the file, the frames and characters not confirmed on disk. */
  get atRisk(): { readonly file: string; readonly frames: number; readonly bytes: number } {
    // The last file started is the one written or closed when the disk stopped answering.
    const file = this.#files.at(-1) ?? this.#dir;
    return { file, frames: this.#accepted - this.#safeFrames, bytes: this.#acceptedChars - this.#safeChars };
  }

  async #drain(): Promise<void> {
    await this.#queue.wait(false);
    const w = this.#writer;
    this.#writer = undefined;
    if (w !== undefined)
      await w.close().then(
        () => this.#safe(),
        (err: unknown) => this.#diskFailed(err),
      );
  }

  /** Gives up on a disk that hangs: what it never confirmed is reported, its stream destroyed. */
  #abandon(cause: DrainGiveUp): void {
    const { file, frames, bytes } = this.atRisk;
    this.#abandoned = drainAbandoned({ file, framesAtRisk: frames, bytesAtRisk: bytes, cause });
    // Not through #fail/onFailure: the recording has already stopped; close()'s caller reads it.
    if (this.#failure === undefined) this.#failure = this.#abandoned;
    this.#queue.abandon();
    this.#writer = undefined;
    this.#sink?.destroy();
  }

  #stalled(): RecordWriteError {
    const file = this.#writer?.path ?? this.#dir;
    return writeStalled({ file, pendingBytes: this.#queue.pending, limitBytes: this.#queue.limit });
  }

  /** Everything handed to the files so far is on disk. */
  #safe(): void {
    this.#safeFrames = this.#frames;
    this.#safeChars = this.#chars;
    this.#steps++;
  }

  async #flush(): Promise<void> {
    await this.#writer?.flush();
    this.#safe();
  }

  /**
   * A file operation failed: what was not confirmed on disk before is not counted as written (a
   * stall may have stopped the writer first: its queued frames were then lost here), and a file
   * whose open failed (EACCES, ENOENT) is not listed: it does not exist.
   */
  #diskFailed(err: unknown): void {
    this.#lost = true;
    const e = err as { syscall?: unknown; path?: unknown } | null;
    if (e?.syscall === "open" && e.path === this.#files.at(-1)) this.#neverCreated = e.path as string;
    this.#fail(err);
  }

  #fail(err: unknown): void {
    if (this.#failure !== undefined) return;
    this.#failure = err;
    this.#onFailure?.(err);
  }

  async #write(line: string): Promise<void> {
    const now = this.#fileTime.next(this.#clock.now());
    const max = this.#policy.maxAgeMs;
    if (this.#writer !== undefined && max !== undefined && now - this.#startedAt >= max) await this.#rotate();
    const w = this.#writer ?? (await this.#open(now, line));
    await w.writeLine(line);
    this.#frames++;
    this.#chars += line.length;
    this.#steps++;
    if (this.#policy.maxBytes !== undefined && ++this.#sinceCheck >= SIZE_CHECK_FRAMES) {
      this.#sinceCheck = 0;
      // Only hands the batch to zlib: a sync flush here, every 64 frames, would cost compression.
      await w.flush({ sync: false });
      if ((await sizeOf(w.path)) >= this.#policy.maxBytes) await this.#rotate();
    }
  }

  async #rotate(): Promise<void> {
    const w = this.#writer;
    this.#writer = undefined;
    if (w !== undefined) await w.close();
    this.#safe();
  }

  /** Starts a file for `line` (the first it will hold); a rotated one begins with the carried state. */
  async #open(now: number, line: string): Promise<RecordedWriter> {
    let path: string;
    do {
      this.#seq++;
      path = join(this.#dir, recordingFileName(this.#prefix, now, this.#seq));
    } while (existsSync(path));
    this.#startedAt = now;
    this.#sinceCheck = 0;
    const sink = this.#openSink?.(path) ?? createWriteStream(path, { flags: "wx" });
    const w = RecordedWriter.toStream(path, sink);
    this.#sink = sink;
    this.#writer = w;
    this.#files.push(path);
    if (this.#files.length > 1) {
      this.#onRotated?.(path);
      // At the first frame's recvTs: the file's recvTs never decrease, and its replay starts there.
      const heads = this.#carry?.heads(this.#frames) ?? [];
      if (heads.length > 0) {
        const recvTs = recvTsOf(line);
        for (const frame of heads) await w.writeLine(recordLine({ recvTs, frame }));
        this.#carried += heads.length;
      }
    }
    return w;
  }
}
