import { MmError } from "../../core/errors.js";

/**
 * The recorder could not keep its files written. `code` `write_stalled`: the disk fell more than
 * the buffer limit behind (details `limitBytes`, `pendingBytes`, `file`); the recording stops, and
 * every frame accepted before is still written once the disk takes them. `drain_abandoned`: while
 * closing, the disk took nothing for `idleMs`; the frames not confirmed written (`framesAtRisk`,
 * `bytesAtRisk` of JSON) may be missing from `file`; when a signal asked for it, details `signal`
 * in place of `idleMs`. Disk errors (ENOSPC, EACCES, …) are reported as they are.
 */
export class RecordWriteError extends MmError {}

/** RecordWriteError `write_stalled`. */
export function writeStalled(d: {
  file: string;
  pendingBytes: number;
  limitBytes: number;
}): RecordWriteError {
  return new RecordWriteError(
    "write_stalled",
    `the disk did not keep up: ${sizeText(d.pendingBytes)} of frames were waiting to be written to ${d.file} ` +
      `(limit ${sizeText(d.limitBytes)}); the recording stops here; the frames received before it are written once the disk takes them`,
    d,
  );
}

/**
 * RecordWriteError `drain_abandoned`: closing gave up on the frames not yet confirmed written,
 * because the disk took nothing for `idleMs`, or because `signal` asked for it (a third SIGINT or
 * SIGTERM while closing). Details: `file`, `framesAtRisk`, `bytesAtRisk` and `idleMs` or `signal`.
 */
export function drainAbandoned(d: {
  file: string;
  framesAtRisk: number;
  bytesAtRisk: number;
  cause: DrainGiveUp;
}): RecordWriteError {
  const why =
    "idleMs" in d.cause
      ? `the disk took nothing for ${d.cause.idleMs / 1_000} s: gave up waiting for it`
      : `${d.cause.signal} received again while closing: gave up waiting for the disk`;
  const { cause, ...rest } = d;
  return new RecordWriteError(
    "drain_abandoned",
    `${why}; ${d.framesAtRisk} frame(s) ` +
      `(${sizeText(d.bytesAtRisk)} of JSON) not confirmed written may be missing from ${d.file}, which ends ` +
      "without its gzip end (mm backtest replays it up to its last complete line)",
    { ...rest, ...cause },
  );
}

/** Why closing gave up on the disk: it took nothing for `idleMs`, or a signal asked for it. */
export type DrainGiveUp = { readonly idleMs: number } | { readonly signal: string };

/** `n` characters (bytes, for ASCII JSON), for people. */
function sizeText(n: number): string {
  return n >= 1_048_576 ? `${(n / 1_048_576).toFixed(1)} MiB` : `${Math.round(n / 1_024)} KiB`;
}
