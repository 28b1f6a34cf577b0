import { execFileSync, spawnSync } from "node:child_process";
import { closeSync, constants, mkdtempSync, openSync, readFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/*
 * Holding a CLI's start-up open, to send it a signal there: a named pipe given as its --config
 * file blocks its read of the configuration until the test writes it (early-stop-signal tests of
 * `mm run` and `mm record`).
 */

/**
 * The `unshare` arguments that let this machine run a process as PID 1 of a new PID namespace (as
 * in a container), or undefined when it cannot.
 */
export const canUnshare: readonly string[] | undefined = (() => {
  const args = process.getuid?.() === 0 ? [] : ["--user", "--map-root-user"];
  const r = spawnSync("unshare", [...args, "--pid", "--fork", "true"], { timeout: 5_000 });
  return r.status === 0 ? args : undefined;
})();

/** A named pipe to pass as `--config` (in a new temporary directory, pushed on `dirs` to remove). */
export function configPipe(dirs: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), "mm-early-signal-"));
  dirs.push(dir);
  const fifo = join(dir, "late.json");
  execFileSync("mkfifo", ["-m", "600", fifo]);
  return fifo;
}

/** Polls `probe` every 20 ms until it gives a value, for up to `ms`. */
export async function poll<T>(probe: () => T | undefined | false, ms: number, what: string): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > until) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Waits until the CLI reads `fifo` (a writer can open it without blocking), calls `send`, then gives it `text`. */
export async function whenReading(fifo: string, send: () => void, text: string): Promise<void> {
  const fd = await poll(
    () => {
      try {
        return openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
      } catch {
        return undefined; // ENXIO: nobody reads it yet
      }
    },
    20_000,
    "mm to read its --config file",
  );
  send();
  // Let the signal land while mm is still blocked in its read of the configuration.
  await new Promise((r) => setTimeout(r, 200));
  try {
    writeSync(fd, text);
  } catch (err) {
    // EPIPE: the reader is gone (killed by the signal); the test's assertions say so.
    if ((err as NodeJS.ErrnoException).code !== "EPIPE") throw err;
  } finally {
    closeSync(fd);
  }
}

/** The pid (in our namespace) of the process `unshare --fork` started: PID 1 inside its namespace. */
export function forkedChild(unsharePid: number): number | undefined {
  try {
    const pid = Number(
      readFileSync(`/proc/${unsharePid}/task/${unsharePid}/children`, "utf8").trim().split(" ")[0],
    );
    return pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}
