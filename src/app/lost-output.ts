import { closeSync } from "node:fs";
import { Writable } from "node:stream";
import { isatty } from "node:tty";
import { type DestinationStream, pino } from "pino";
import type { PrettyOptions } from "pino-pretty";
import { humanLogStream } from "../observability/pretty-line.js";

/**
 * Write errors that mean the reader is gone for good: a hung-up terminal (a closed terminal window
 * or ssh session) answers EIO, a closed pipe EPIPE. Nothing written after them can be read.
 */
const GONE = new Set(["EIO", "EPIPE", "ENXIO", "ECONNRESET"]);

/** True for a write error saying the output's reader is gone (see GONE). */
export function isOutputGone(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" && GONE.has(code);
}

let installed = false;

/**
 * Lets the process outlive its terminal or output pipe:
 * - process.stdout and process.stderr report a gone reader as an 'error' event, which, unheard,
 *   kills the process. A closed terminal does exactly that right after its SIGHUP, while `mm run`
 *   is still cancelling its quotes. Those errors are dropped; others still propagate.
 * - At exit, Node restores the terminal modes of the stdio descriptors that were terminals at
 *   start, and aborts (SIGABRT, exit 134) when the terminal has hung up (tcsetattr fails with
 *   EIO). A descriptor that was a terminal and no longer answers as one is closed first, which
 *   Node skips.
 * Installs once per process.
 * @example keepRunningWithoutOutput(); // in the CLI entry, before any command runs
 */
export function keepRunningWithoutOutput(): void {
  if (installed) return;
  installed = true;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (err: unknown) => {
      if (!isOutputGone(err)) throw err;
    });
  }
  const terminals = [0, 1, 2].filter((fd) => isatty(fd));
  if (terminals.length > 0) process.once("exit", () => closeHungUp(terminals));
}

/** Closes each descriptor that no longer answers as a terminal (hung up; already closed is fine). */
function closeHungUp(fds: readonly number[]): void {
  for (const fd of fds) {
    if (isatty(fd)) continue;
    try {
      closeSync(fd);
    } catch {
      // Closed already: Node skips it too.
    }
  }
}

type Sonic = ReturnType<typeof pino.destination>;

/**
 * A log destination on a file descriptor that goes quiet, instead of killing the process, once
 * its reader is gone (pino's own guard covers EPIPE only, not a hung-up terminal's EIO). The lines
 * written after that are dropped: there is no one to read them. Any other write error goes quiet
 * the same way, then destroys the stream with it (an 'error' event: uncaught in `mm run`, it stops
 * the daemon with exit code 1), and never leaves a write to retry at exit.
 */
export class SurvivingDestination extends Writable {
  readonly #inner: Sonic;
  #gone = false;

  constructor(fd: number, sync: boolean) {
    super({ decodeStrings: false });
    this.#inner = pino.destination({ dest: fd, sync });
    this.#inner.on("error", (err: unknown) => {
      this.#gone = true;
      // What the failed write left buffered would be retried at exit (pino flushes it then), and
      // sonic-boom's flushSync retries any error but EAGAIN for ever: process.exit would hang.
      const inner = this.#inner as unknown as Record<string, unknown>;
      for (const method of ["write", "flush", "flushSync", "end"]) inner[method] = () => true;
      // Any other write error (ENOSPC, EFBIG: a log file that cannot grow) is not dropped: uncaught,
      // it stops the daemon (processFailures: every quote cancelled, exit 1).
      if (!isOutputGone(err)) this.destroy(err as Error);
    });
  }

  override _write(chunk: unknown, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    if (!this.#gone) this.#inner.write(String(chunk));
    cb();
  }

  /** Writes what is buffered now (pino calls this after a fatal line). */
  flushSync(): void {
    if (!this.#gone) this.#inner.flushSync();
  }

  /** Writes what is buffered, then calls back (logger.flush()). */
  flush(cb: (err?: Error) => void): void {
    if (this.#gone) cb();
    else this.#inner.flush(cb);
  }
}

/**
 * Where a long-running command's log lines go on stdout, surviving a closed terminal: readable
 * lines, one per event with its fields as `key=value` (`human`, see humanLogStream), else JSON lines.
 * @example createLogger({ ...loggerOptions(config), destination: stdoutLogDestination(process.stdout.isTTY === true) });
 */
export function stdoutLogDestination(human: boolean, prettyOptions: PrettyOptions = {}): DestinationStream {
  if (!human) return new SurvivingDestination(1, false);
  return humanLogStream(new SurvivingDestination(1, true), prettyOptions);
}
