import type { Clock, TimerId } from "../core/clock.js";
import { CommandRejectedError, GatewayError } from "./errors.js";
import { parseErrorReply } from "./replies.js";

interface Pending {
  readonly cmd: string;
  /** Its caller does without a reply: a timeout fails it alone (the owner keeps the socket). */
  readonly optional: boolean;
  readonly timer: TimerId;
  readonly resolve: (reply: Record<string, unknown>) => void;
  readonly reject: (err: Error) => void;
}

/**
 * Commands sent and not yet answered, by correlation id, each with a timeout on the injected
 * Clock. An `error` reply rejects with CommandRejectedError (the server's code, top-level or
 * nested: parseErrorReply); a timeout rejects with GatewayError `command_timeout` and tells the
 * owner (who drops the connection, since a silent command means the socket can no longer be
 * trusted, unless the spec does not promise that command a reply).
 */
export class PendingCommands {
  readonly #clock: Clock;
  readonly #timeoutMs: number;
  readonly #onTimeout: (cmd: string, optional: boolean) => void;
  readonly #byId = new Map<string, Pending>();
  #next = 1;

  constructor(clock: Clock, timeoutMs: number, onTimeout: (cmd: string, optional: boolean) => void) {
    this.#clock = clock;
    this.#timeoutMs = timeoutMs;
    this.#onTimeout = onTimeout;
  }

  /** Commands awaiting an answer. */
  get size(): number {
    return this.#byId.size;
  }

  /** A fresh correlation id. */
  nextId(): string {
    return `c${this.#next++}`;
  }

  /** True when `id` is awaited. */
  has(id: string): boolean {
    return this.#byId.has(id);
  }

  /** The command awaited under `id` ("ping", "subscribe"…), or undefined when none is. */
  cmdOf(id: string): string | undefined {
    return this.#byId.get(id)?.cmd;
  }

  /**
   * Registers command `id`; the promise settles with its reply. `optional`: passed to the owner's
   * onTimeout (a command whose caller does without its reply).
   */
  add(id: string, cmd: string, optional = false): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const timer = this.#clock.setTimer(this.#timeoutMs, () => {
        if (this.#byId.delete(id)) {
          reject(
            new GatewayError("command_timeout", `${cmd}: no reply within ${this.#timeoutMs} ms`, { cmd }),
          );
          this.#onTimeout(cmd, optional);
        }
      });
      this.#byId.set(id, { cmd, optional, timer, resolve, reject });
    });
  }

  /** Settles the command a reply answers; false when no command awaits that id. */
  settle(id: string, reply: Record<string, unknown>): boolean {
    const p = this.#byId.get(id);
    if (p === undefined) return false;
    this.#byId.delete(id);
    this.#clock.cancelTimer(p.timer);
    if (reply.type === "error") {
      const { code, message } = parseErrorReply(reply);
      p.reject(new CommandRejectedError(p.cmd, code, message));
    } else {
      p.resolve(reply);
    }
    return true;
  }

  /** Rejects every awaited command (the connection is gone). */
  failAll(err: Error): void {
    const all = [...this.#byId.values()];
    this.#byId.clear();
    for (const p of all) {
      this.#clock.cancelTimer(p.timer);
      p.reject(err);
    }
  }
}
