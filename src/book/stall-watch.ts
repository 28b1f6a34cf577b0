import type { Clock, TimerId } from "../core/clock.js";
import { ClockStepWatch } from "../core/clock-step.js";
import { LinkLiveness, type LinkOf } from "./liveness.js";
import { isSilent } from "./stall.js";
import type { TokenBook } from "./token-book.js";
import type { StallConfig } from "./tracker-config.js";

/** What the watch does about a verdict. */
export interface StallActions {
  /** `st`'s link showed no liveness for too long: `st` (synced) becomes stale. */
  connectionSilent(st: TokenBook): void;
  /** Liveness of `st`'s link is back: `st`, stale for connection silence, is synced again. */
  connectionAlive(st: TokenBook): void;
  /** `st` (synced) has been silent beyond its own limit while the connection is alive. */
  bookSilent(st: TokenBook): void;
}

/**
 * The stall detector's clockwork: a check every `checkEveryMs` on the injected Clock, armed only
 * while there are books, plus each link's last sign of life (LinkLiveness). A book's link is asked
 * of `linkOf` at each verdict, so a book moved to another link is judged by its new one. Verdicts
 * follow StallConfig.
 */
export class StallWatch {
  readonly #clock: Clock;
  readonly #cfg: StallConfig;
  readonly #books: ReadonlyMap<string, TokenBook>;
  readonly #act: StallActions;
  readonly #linkOf: LinkOf;
  #timer: TimerId | undefined;
  readonly #alive = new LinkLiveness();
  readonly #steps = new ClockStepWatch();

  constructor(
    clock: Clock,
    cfg: StallConfig,
    books: ReadonlyMap<string, TokenBook>,
    act: StallActions,
    linkOf: LinkOf = () => undefined,
  ) {
    this.#clock = clock;
    this.#cfg = cfg;
    this.#books = books;
    this.#act = act;
    this.#linkOf = linkOf;
  }

  /**
   * Records liveness of `link` (undefined: the one connection) at `ts` and revives the books it
   * counts for (LinkLiveness) that are stale for connection silence; another link's stay stale.
   */
  alive(ts: number, link?: number): void {
    this.#alive.record(ts, link);
    for (const st of this.#books.values()) {
      if (st.status !== "stale" || st.reason !== "connection_silent") continue;
      if (LinkLiveness.counts(link, this.#linkOf(st.tokenId))) this.#act.connectionAlive(st);
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
    this.#alive.stepBack(now, step);
    for (const st of this.#books.values()) {
      if (st.lastUpdateTs !== undefined && st.lastUpdateTs > now) st.lastUpdateTs -= step;
    }
  }

  #check(): void {
    this.#timer = undefined;
    const now = this.#clock.now();
    this.#follow(now);
    for (const st of this.#books.values()) {
      if (st.status !== "synced") continue;
      const last = this.#alive.last(this.#linkOf(st.tokenId));
      if (last !== undefined && now - last > this.#cfg.livenessTimeoutMs) this.#act.connectionSilent(st);
      else if (!st.probe && isSilent(st.rate, st.lastUpdateTs, now, this.#cfg)) this.#act.bookSilent(st);
    }
    this.arm();
  }
}
