import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { endianness } from "node:os";

/**
 * What SQLite's recovery will make of a journal's `-wal` file, read before SQLite opens it.
 *
 * Recovery (the first connection to open the file) replays frames while each one's checksum, which
 * chains from the frame before it, holds, and stops at the first that fails: the WAL ends there, and
 * every commit after it vanishes without an error (PRAGMA quick_check then says `ok`, and the next
 * checkpoint and close delete the WAL for good). Because each frame's stored checksum seeds the
 * next, a frame after a damaged one still verifies against its predecessor's stored checksum: a
 * commit frame of the WAL's current generation (the header's salts) found so past the break is a
 * commit recovery would drop. Frames of an earlier generation (other salts) are stale, not lost;
 * frames after the last commit that are not followed by one are a transaction that never committed.
 * Where the break is tells why (breakKind): a write that never reached the disk, or damage.
 */
export interface WalScan {
  /** Frames (whole ones) in the file. */
  readonly frames: number;
  /** Frames recovery keeps: up to the last commit frame of the unbroken chain. */
  readonly recoveredFrames: number;
  /** Where recovery stops (1-based frame) when commits follow it (lostCommits > 0), else undefined. */
  readonly brokenFrame: number | undefined;
  /** Commit frames after brokenFrame that verify on their own: commits recovery would drop. */
  readonly lostCommits: number;
  /** Why recovery stops at brokenFrame (see WalBreak); undefined when it drops no commit. */
  readonly breakKind: WalBreak | undefined;
  /** The 32-byte header is not a valid WAL header although frames follow: recovery ignores them all. */
  readonly headerDamaged: boolean;
}

/**
 * Why recovery stops before commits that verify:
 * - `unwritten`: the frame never reached the disk, while later ones did — what a power loss under
 *   synchronous=NORMAL leaves (the WAL is not fsynced per commit, and the kernel and the disk write
 *   its pages back in any order). The frame still holds what was there before (a frame of an earlier
 *   generation: other salts) or nothing (zeros); or it is of the current generation but fails its
 *   checksum while the frame after it is not of the current generation: a frame spans two disk pages,
 *   and the one it shares with the next frame's header was never written. Recovery rolls back to
 *   the commit before it: the documented loss of the last instants, not damage.
 * - `damaged`: a frame of the current generation that fails its checksum while the next one is of
 *   the current generation too: changed after it was written (a bad sector, bit rot).
 */
export type WalBreak = "unwritten" | "damaged";

const HEADER = 32;
const FRAME_HEADER = 24;
const MAGIC_LE = 0x377f0682;
const MAGIC_BE = 0x377f0683;
const VERSION = 3007000;
const NATIVE_BE = endianness() === "BE";

/** Scans of a WAL that found a break and must find the very same one again before it counts. */
const CONFIRM_SCANS = 3;
/** The pause between two such scans, ms: a writer's frame is whole microseconds after it began. */
const CONFIRM_PAUSE_MS = 50;

/**
 * Scans `<path>-wal` (see WalScan), or returns undefined when there is none or it holds no frame.
 * Read-only and lock-free, so it may read a WAL another process is writing: after a checkpoint a
 * writer restarts the WAL and overwrites its frames in place, each in two writes (the frame's header,
 * then its page), and a scan that reads a frame between them sees a broken frame, which the writer
 * then completes and commits past. So a break (or a damaged header) counts only when a second scan,
 * a moment later, finds the very same one: the same WAL header (salts), the same frame, the same
 * bytes and the same commits after it. A writer writes each frame of a generation once and in order,
 * so it never leaves the same break twice; a WAL that changes from scan to scan is being written, by
 * a connection that ran recovery when it opened and keeps the WAL index while it lives, so this
 * process's open runs no recovery: the scan reports no break then.
 * @example const scan = scanWal("/var/lib/mm/journal.sqlite"); if (scan?.breakKind === "damaged") refuse();
 */
export function scanWal(path: string): WalScan | undefined {
  let fd: number;
  try {
    fd = openSync(`${path}-wal`, "r");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
  try {
    let previous: Scanned | undefined;
    for (let i = 0; i < CONFIRM_SCANS; i++) {
      const now = scanStable(fd);
      if (now === undefined || now.signature === "") return now?.scan;
      if (previous !== undefined && previous.signature === now.signature) return now.scan;
      previous = now;
      if (i + 1 < CONFIRM_SCANS) pause(CONFIRM_PAUSE_MS);
    }
    // The break moved every time: the WAL is being written, its breaks are the writer's frames in flight.
    const last = (previous as Scanned).scan;
    return { ...last, brokenFrame: undefined, lostCommits: 0, breakKind: undefined, headerDamaged: false };
  } finally {
    closeSync(fd);
  }
}

/** A scan and what identifies its break ("" when it found none). */
interface Scanned {
  readonly scan: WalScan;
  readonly signature: string;
}

/** One scan between two equal reads of the header (a restart meanwhile: scanned again, twice at most). */
function scanStable(fd: number): Scanned | undefined {
  for (let attempt = 0; ; attempt++) {
    const before = readAt(fd, HEADER, 0);
    const scanned = scanOnce(fd, before);
    const after = readAt(fd, HEADER, 0);
    if (before.equals(after) || attempt >= 2) return scanned;
  }
}

/** Blocks this thread for `ms` (the scan runs before anything else of the journal can). */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function scanOnce(fd: number, header: Buffer): Scanned | undefined {
  const size = fstatSync(fd).size;
  if (header.length < HEADER) return undefined;
  const magic = header.readUInt32BE(0);
  const pageSize = header.readUInt32BE(8);
  const pageOk = pageSize >= 512 && pageSize <= 65536 && (pageSize & (pageSize - 1)) === 0;
  const bigEnd = magic === MAGIC_BE;
  const headerOk =
    (magic === MAGIC_LE || bigEnd) &&
    header.readUInt32BE(4) === VERSION &&
    pageOk &&
    sameSum(checksum(bigEnd, header.subarray(0, 24), 0, 0), header, 24);
  if (!headerOk) {
    // Without a valid header recovery ignores the whole file; it matters only when frames follow.
    const frames = pageOk ? Math.floor((size - HEADER) / (FRAME_HEADER + pageSize)) : 0;
    if (size < HEADER + FRAME_HEADER + 512) return undefined;
    const scan = { frames, recoveredFrames: 0, brokenFrame: 1, lostCommits: 0, breakKind: undefined };
    return { scan: { ...scan, headerDamaged: true }, signature: `header ${header.toString("hex")} ${size}` };
  }
  const frameSize = FRAME_HEADER + pageSize;
  const frames = Math.floor((size - HEADER) / frameSize);
  if (frames === 0) return undefined;
  const salts = header.subarray(16, 24);
  let seed: [number, number] = [header.readUInt32BE(24), header.readUInt32BE(28)];
  let recoveredFrames = 0;
  // The first frame recovery rejects: a damaged one, or the WAL's normal end (a stale frame of an
  // earlier generation, other salts). Only current frames that verify past it tell the two apart.
  let end: number | undefined;
  let endFrame = "";
  let endCurrent = false; // whether the frame at `end` is of the current generation
  let nextCurrent = true; // and the frame right after it
  let lostCommits = 0;
  let lost = "";
  const buf = Buffer.alloc(frameSize); // one buffer for every frame: a WAL can hold thousands
  for (let i = 1; i <= frames; i++) {
    if (readSync(fd, buf, 0, frameSize, HEADER + (i - 1) * frameSize) < frameSize) break;
    const frame = buf;
    const current = frame.subarray(8, 16).equals(salts);
    const sum = checksum(
      bigEnd,
      frame.subarray(FRAME_HEADER),
      ...checksum(bigEnd, frame.subarray(0, 8), ...seed),
    );
    const valid = current && frame.readUInt32BE(0) !== 0 && sameSum(sum, frame, 16);
    const commit = frame.readUInt32BE(4) !== 0;
    if (end !== undefined && i === end + 1) nextCurrent = current;
    if (end === undefined && !valid) {
      end = i;
      endCurrent = current;
      endFrame = `${frame.subarray(0, FRAME_HEADER).toString("hex")}/${sum[0]}.${sum[1]}`;
    }
    if (valid && commit) {
      if (end === undefined) recoveredFrames = i;
      else {
        lostCommits++;
        lost += ` ${i}:${frame.readUInt32BE(16)}.${frame.readUInt32BE(20)}`;
      }
    }
    // The next frame chains from this one's stored checksum, whether or not this one verified.
    seed = [frame.readUInt32BE(16), frame.readUInt32BE(20)];
  }
  const brokenFrame = lostCommits > 0 ? end : undefined;
  const breakKind: WalBreak | undefined =
    brokenFrame === undefined ? undefined : endCurrent && nextCurrent ? "damaged" : "unwritten";
  const scan = { frames, recoveredFrames, brokenFrame, lostCommits, breakKind, headerDamaged: false };
  const signature =
    brokenFrame === undefined ? "" : `${header.toString("hex")} ${brokenFrame} ${endFrame}${lost}`;
  return { scan, signature };
}

function readAt(fd: number, length: number, position: number): Buffer {
  const buf = Buffer.alloc(length);
  const n = readSync(fd, buf, 0, length, position);
  return buf.subarray(0, n);
}

function sameSum(sum: readonly [number, number], buf: Buffer, at: number): boolean {
  return sum[0] === buf.readUInt32BE(at) && sum[1] === buf.readUInt32BE(at + 4);
}

/**
 * SQLite's WAL checksum (walChecksumBytes): 32-bit words in the byte order the magic names, summed
 * two at a time in Fibonacci fashion, modulo 2^32, from the seed s1In, s2In.
 * @example checksum(false, header.subarray(0, 24), 0, 0) // the header's own checksum
 */
export function checksum(bigEnd: boolean, data: Buffer, s1In: number, s2In: number): [number, number] {
  let s1 = s1In >>> 0;
  let s2 = s2In >>> 0;
  if (bigEnd === NATIVE_BE && data.byteOffset % 4 === 0) {
    // The file's byte order is this machine's (SQLite writes its own): read words directly, ~10x faster.
    const w = new Uint32Array(data.buffer, data.byteOffset, (data.length >>> 3) * 2);
    for (let i = 0; i < w.length; i += 2) {
      s1 = (s1 + (w[i] as number) + s2) >>> 0;
      s2 = (s2 + (w[i + 1] as number) + s1) >>> 0;
    }
    return [s1, s2];
  }
  for (let i = 0; i + 8 <= data.length; i += 8) {
    const a = bigEnd ? data.readUInt32BE(i) : data.readUInt32LE(i);
    const b = bigEnd ? data.readUInt32BE(i + 4) : data.readUInt32LE(i + 4);
    s1 = (s1 + a + s2) >>> 0;
    s2 = (s2 + b + s1) >>> 0;
  }
  return [s1, s2];
}
