import { errorCode, withCode } from "../core/error-code.js";

/**
 * How many distinct failures (by reason and message) are named; past that, recurrences and new ones
 * alike are only counted. A throw whose message carries a changing id must not flood stderr either.
 */
export const NAMED_FAILURES = 5;

/** Stack frames kept when a failure other than the first is named: enough to find the throw. */
const FRAMES_AFTER_FIRST = 2;

/**
 * What stderr says of the process's uncaught errors (processFailures). The first is named with its
 * whole stack; each later one whose reason and message are new gets its message and top frames, up
 * to NAMED_FAILURES distinct ones; every other (a recurrence: a throw in a per-frame handler fires
 * hundreds of times a second while the stop cancels) is counted, and {@link flush} says how many
 * once the stop ends. A named failure's first line ends with its code (an MmError's own, a Node
 * system error's, else `unexpected_error`), as every mm error line does, for a log shipper to key on.
 * Every line goes through `notify`, the scrubbed stderr.
 * @example const notes = new FailureNotes(notify); notes.failed("uncaughtException", err); notes.flush();
 */
export class FailureNotes {
  readonly #notify: (line: string) => void;
  readonly #named = new Set<string>();
  #suppressed = 0;
  #suppressedKinds = new Set<string>();

  constructor(notify: (line: string) => void) {
    this.#notify = notify;
  }

  /**
   * Names `failure` (see the class) and returns whether it was written: false for one only counted.
   */
  failed(reason: string, failure: unknown): boolean {
    const full = describeFailure(failure);
    const [message = ""] = full.split("\n", 1);
    const key = `${reason}: ${message}`;
    const code = errorCode(failure);
    if (this.#named.size === 0) {
      this.#named.add(key);
      this.#notify(withCode(`${reason}: ${full}`, code));
      return true;
    }
    if (this.#named.has(key) || this.#named.size >= NAMED_FAILURES) {
      this.#suppressed++;
      this.#suppressedKinds.add(key);
      return false;
    }
    this.#named.add(key);
    const frames = full
      .split("\n")
      .slice(1)
      .filter((l) => l.trimStart().startsWith("at "))
      .slice(0, FRAMES_AFTER_FIRST);
    this.#notify([withCode(`${reason}: ${message}`, code), ...frames].join("\n"));
    return true;
  }

  /** Writes how many failures were counted and not named since the last flush, if any. */
  flush(): void {
    if (this.#suppressed === 0) return;
    const n = this.#suppressed;
    const kinds = this.#suppressedKinds.size;
    this.#suppressed = 0;
    this.#suppressedKinds = new Set();
    this.#notify(
      `${n} more uncaught error${n === 1 ? "" : "s"} (${kinds} distinct) while stopping were counted, not printed`,
    );
  }
}

/** A failure as stderr names it: its stack (the message first), else its text. */
export function describeFailure(failure: unknown): string {
  if (failure instanceof Error) return failure.stack ?? `${failure.name}: ${failure.message}`;
  return String(failure);
}
