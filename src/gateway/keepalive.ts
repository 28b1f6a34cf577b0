import type { Clock, TimerId } from "../core/clock.js";

/** What the keepalive does when it acts. */
export interface KeepaliveHooks {
  /** Sends a ping command (its pong, like any frame, reaches heard()). */
  ping(): void;
  /** Nothing was heard for `silentMs` ≥ the silence limit: the connection is dead. */
  dead(silentMs: number): void;
}

/**
 * Keepalive of one connection on the injected Clock: a ping every `pingIntervalMs`, and a
 * watchdog that declares the connection dead when no frame at all (events, replies, pongs) was
 * heard for `silenceTimeoutMs`. heard() only stores a time; the watchdog timer re-arms itself
 * lazily at lastHeard + limit, so a busy connection costs no timer churn.
 */
export class Keepalive {
  readonly #clock: Clock;
  readonly #pingMs: number;
  readonly #silenceMs: number;
  readonly #hooks: KeepaliveHooks;
  #lastHeard = 0;
  #pingTimer: TimerId | undefined;
  #watchTimer: TimerId | undefined;
  #running = false;

  constructor(
    clock: Clock,
    timing: { readonly pingIntervalMs: number; readonly silenceTimeoutMs: number },
    hooks: KeepaliveHooks,
  ) {
    this.#clock = clock;
    this.#pingMs = timing.pingIntervalMs;
    this.#silenceMs = timing.silenceTimeoutMs;
    this.#hooks = hooks;
  }

  /** Clock time of the last frame heard. */
  get lastHeard(): number {
    return this.#lastHeard;
  }

  /** Starts pinging and watching, counting from now. */
  start(): void {
    this.stop();
    this.#running = true;
    this.#lastHeard = this.#clock.now();
    this.#armPing();
    this.#armWatch(this.#silenceMs);
  }

  /** A frame arrived. */
  heard(): void {
    this.#lastHeard = this.#clock.now();
  }

  /** Cancels both timers. */
  stop(): void {
    this.#running = false;
    if (this.#pingTimer !== undefined) this.#clock.cancelTimer(this.#pingTimer);
    if (this.#watchTimer !== undefined) this.#clock.cancelTimer(this.#watchTimer);
    this.#pingTimer = undefined;
    this.#watchTimer = undefined;
  }

  #armPing(): void {
    this.#pingTimer = this.#clock.setTimer(this.#pingMs, () => {
      this.#pingTimer = undefined;
      if (!this.#running) return;
      this.#armPing();
      this.#hooks.ping();
    });
  }

  #armWatch(delayMs: number): void {
    this.#watchTimer = this.#clock.setTimer(delayMs, () => {
      this.#watchTimer = undefined;
      if (!this.#running) return;
      const silent = this.#clock.now() - this.#lastHeard;
      if (silent >= this.#silenceMs) {
        this.stop();
        this.#hooks.dead(silent);
      } else {
        this.#armWatch(this.#silenceMs - silent);
      }
    });
  }
}
