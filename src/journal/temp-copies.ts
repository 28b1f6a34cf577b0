import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// Private temp folders (mm report's journal copies: the whole trading history) that must not outlive
// the process: removed by their owner's close, or on exit and on the signals that end it.

/**
 * A new private temp folder named `prefix…`, removed on exit and on SIGINT/SIGTERM/SIGHUP unless
 * dropCopy removes it first.
 */
export function guardedTempDir(prefix: string): string {
  // The handlers first: a signal that came between the folder's creation and them would leave it.
  guardCopies();
  let dir: string;
  try {
    dir = mkdtempSync(join(tmpdir(), prefix));
  } catch (err) {
    unguardLater();
    throw err;
  }
  copies.add(dir);
  return dir;
}

/** The signals that end a process by default and that Ctrl-C, a stop or a closed terminal send. */
const ENDING_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
type EndingSignal = (typeof ENDING_SIGNALS)[number];

/** Private copies not yet removed, and the handlers that remove them if the process ends first. */
const copies = new Set<string>();
let guard: { readonly exit: () => void; readonly signals: Map<EndingSignal, () => void> } | undefined;

function removeCopies(): void {
  for (const dir of copies) {
    try {
      // Retried: a copy still being written (its file created meanwhile) makes the folder not empty.
      rmSync(dir, { recursive: true, force: true, maxRetries: 3, retryDelay: 10 });
      copies.delete(dir);
    } catch {
      // Left for the exit handler's try; a handler that threw would keep the signal from ending the process.
    }
  }
}

/** Installs the handlers that remove the copies if the process ends before their close. */
function guardCopies(): void {
  if (guard !== undefined) return;
  const signals = new Map<EndingSignal, () => void>();
  guard = { exit: removeCopies, signals };
  process.on("exit", removeCopies);
  for (const sig of ENDING_SIGNALS) {
    const onSignal = (): void => {
      removeCopies();
      const own = process.listenerCount(sig) > 1; // the process stops itself on it (a daemon)
      unguard();
      // Without a handler the signal would have ended the process: end it so (the shell shows 128 + the
      // signal's number: 130, 143, 129), now the copies are gone.
      if (!own) process.kill(process.pid, sig);
    };
    signals.set(sig, onSignal);
    process.on(sig, onSignal);
  }
}

function unguard(): void {
  if (guard === undefined) return;
  process.off("exit", guard.exit);
  for (const [sig, h] of guard.signals) process.off(sig, h);
  guard = undefined;
}

/** Removes a folder of guardedTempDir (its handlers go once none is left). */
export function dropCopy(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  copies.delete(dir);
  unguardLater();
}

/**
 * Takes the handlers off once no copy is left, after the event loop has polled once more: a signal
 * that came while the report ran synchronously waits in libuv's signal pipe until a poll, and
 * handlers taken off before would drop it. Two turns of setImmediate hold a poll between them.
 */
function unguardLater(): void {
  if (copies.size > 0) return;
  setImmediate(() => setImmediate(() => copies.size === 0 && unguard()));
}
