import type { Clock, TimerId } from "../core/clock.js";
import { ClockStepWatch } from "../core/clock-step.js";
import { isSilent } from "./stall.js";
import type { TokenBook } from "./token-book.js";
import type { StallConfig } from "./tracker-config.js";

/** What the watch does about a verdict. */
export interface StallActions {
  /** The connection showed no liveness for too long: `st` (synced) becomes stale. */
  connectionSilent(st: TokenBook): void;
  /** Liveness is back: `st`, stale for connection silence, is synced again. */
  connectionAlive(st: TokenBook): void;
  /** `st` (synced) has been silent beyond its own limit while the connection is alive. */
  bookSilent(st: TokenBook): void;
}

/**
 * The stall detector's clockwork: a check every `checkEveryMs` on the injected Clock, armed only
 * while there are books, plus the connection's last sign of life. Verdicts follow StallConfig.
 */
export class StallWatch {
  readonly #clock: Clock;
  readonly #cfg: StallConfig;
  readonly #books: ReadonlyMap<string, TokenBook>;
  readonly #act: StallActions;
  #timer: TimerId | undefined;
  #lastAlive: number | undefined;
  readonly #steps = new ClockStepWatch();

  constructor(clock: Clock, cfg: StallConfig, books: ReadonlyMap<string, TokenBook>, act: StallActions) {
    this.#clock = clock;
    this.#cfg = cfg;
    this.#books = books;
    this.#act = act;
  }

  /** Records liveness at `ts` and revives books stale for connection silence. */
  alive(ts: number): void {
    this.#lastAlive = ts;
    for (const st of this.#books.values()) {
      if (st.status === "stale" && st.reason === "connection_silent") this.#act.connectionAlive(st);
    }
  }

  /** Starts the periodic check if it should run and is not running. */
  arm(): void {
    if (!this.#cfg.enabled || this.#timer !== undefined || this.#books.size === 0) return;
    this.#timer = this.#clock.setTimer(this.#cfg.checkEveryMs, () => this.#check());
  }

  /** Stops the periodic check. */
  stop(): void {
    if (this.#timer !== undefined) this.#clock.cancelTimer(this.#timer);
    this.#timer = undefined;
  }

  /**
   * Keeps the liveness and last-update instants on the clock's time scale when it stepped back by
   * more than a second since the last check (NTP, a VM resumed): those still ahead of `now` move back
   * by the step (instants stamped after the step are not ahead). Left as they were, every silence
   * would look negative until the clock caught up: a stuck book unnoticed for the step's length.
   */
  #follow(now: number): void {
    const step = this.#steps.follow(now);
    if (step === 0) return;
    if (this.#lastAlive !== undefined && this.#lastAlive > now) this.#lastAlive -= step;
    for (const st of this.#books.values()) {
      if (st.lastUpdateTs !== undefined && st.lastUpdateTs > now) st.lastUpdateTs -= step;
    }
  }

  #check(): void {
    this.#timer = undefined;
    const now = this.#clock.now();
    this.#follow(now);
    const silent = this.#lastAlive !== undefined && now - this.#lastAlive > this.#cfg.livenessTimeoutMs;
    for (const st of this.#books.values()) {
      if (st.status !== "synced") continue;
      if (silent) this.#act.connectionSilent(st);
      else if (!st.probe && isSilent(st.rate, st.lastUpdateTs, now, this.#cfg)) this.#act.bookSilent(st);
    }
    this.arm();
  }
}
