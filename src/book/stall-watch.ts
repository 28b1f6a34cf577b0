import type { Clock, TimerId } from "../core/clock.js";
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

  #check(): void {
    this.#timer = undefined;
    const now = this.#clock.now();
    const silent = this.#lastAlive !== undefined && now - this.#lastAlive > this.#cfg.livenessTimeoutMs;
    for (const st of this.#books.values()) {
      if (st.status !== "synced") continue;
      if (silent) this.#act.connectionSilent(st);
      else if (!st.probe && isSilent(st.rate, st.lastUpdateTs, now, this.#cfg)) this.#act.bookSilent(st);
    }
    this.arm();
  }
}
