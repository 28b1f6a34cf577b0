import type { Clock, TimerId } from "../core/clock.js";
import { SETTLED_MARKET_STATUSES } from "../core/types.js";
import type { Logger } from "../observability/logger.js";
import type { TokenSlot, TokenTable } from "./engine-tokens.js";

/**
 * How long after the engine's start a book may still wait for its first snapshot before it is
 * worth a warning: the stall watch's liveness timeout, and three of the tracker's snapshot timeouts
 * (the subscription's snapshot and two requests have gone unanswered by then).
 */
export const FIRST_SNAPSHOT_WARN_MS = 30_000;

/**
 * Names the books that never got their first snapshot. Every book waits for one at start, and the
 * decision log keeps that routine wait at debug; a book that never gets one (the exchange does not
 * answer its subscription, its snapshot keeps arriving crossed, its subscribe was refused) would
 * leave its token unquoted with nothing said at info or warn. So, `boundMs` after start (on the
 * engine's Clock), one warn line per token still waiting, naming it and its market; when such a
 * book's first snapshot arrives at last, one info line. Nothing repeats: one check, one line each.
 * @example
 * const first = new FirstSnapshotWatch(clock, log, tokens);
 * first.arrived(slot); // engine.onBookState, at a book's first synced state
 * first.arm(); // engine.start, once quoting is enabled
 */
export class FirstSnapshotWatch {
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #tokens: TokenTable;
  readonly #boundMs: number;
  /** Tokens warned about whose first snapshot has not arrived yet. */
  readonly #warned = new Set<string>();
  #startedAt: number | undefined;
  #timer: TimerId | undefined;

  constructor(clock: Clock, log: Logger, tokens: TokenTable, boundMs = FIRST_SNAPSHOT_WARN_MS) {
    this.#clock = clock;
    this.#log = log;
    this.#tokens = tokens;
    this.#boundMs = boundMs;
  }

  /** A book's first snapshot has arrived (TokenSlot.everSynced just set): logged if it was warned of. */
  arrived(slot: TokenSlot): void {
    const m = slot.market;
    if (!this.#warned.delete(m.tokenId)) return;
    this.#log.info(
      {
        tokenId: m.tokenId,
        marketId: m.marketId,
        outcome: m.outcome,
        waitedMs: Math.max(0, this.#clock.now() - (this.#startedAt ?? 0)),
      },
      "book: first snapshot arrived",
    );
  }

  /** Starts the one check, `boundMs` from now (engine start); no-op when armed before. */
  arm(): void {
    if (this.#startedAt !== undefined) return;
    this.#startedAt = this.#clock.now();
    this.#timer = this.#clock.setTimer(this.#boundMs, () => {
      this.#timer = undefined;
      this.#check();
    });
  }

  /** Cancels a pending check (engine stop). */
  stop(): void {
    if (this.#timer !== undefined) this.#clock.cancelTimer(this.#timer);
    this.#timer = undefined;
  }

  #check(): void {
    const waitedMs = Math.max(0, this.#clock.now() - (this.#startedAt ?? 0));
    for (const slot of this.#tokens.slots()) {
      const tokenId = slot.market.tokenId;
      // A settled market's books are not watched (retired, or never subscribed): none will come.
      if (slot.everSynced || SETTLED_MARKET_STATUSES.has(slot.market.status)) continue;
      this.#warned.add(tokenId);
      this.#log.warn(
        {
          tokenId,
          marketId: slot.market.marketId,
          outcome: slot.market.outcome,
          waitedMs,
          status: slot.bookState?.status,
          reason: slot.bookState?.reason,
          // A resyncing book has a book only from snapshots it applied: they arrived crossed.
          crossed: slot.book?.isCrossed() ?? false,
        },
        "book: no first snapshot since start, token not quoted",
      );
    }
  }
}
