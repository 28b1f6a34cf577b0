import type { BookState } from "../book/book-state.js";
import type { EngineStatus } from "../engine/engine-api.js";
import type { Readiness } from "./http-server.js";

export interface ReadinessSources {
  /**
   * Book trackers of the quoted tokens (BookTracker fits). `refused()` lists the tokens whose
   * subscription the exchange refused for good: untracked, so absent from `tokens()`, yet wanted.
   */
  readonly trackers: readonly {
    tokens(): string[];
    state(tokenId: string): BookState | undefined;
    refused?(): string[];
  }[];
  readonly engine: { status(): EngineStatus };
  /**
   * Once ready, stay ready (default true): a book resyncing after a gap, or refused on a later
   * resubscribe, is the trading layer's business (it stops quoting that token; mm_book_state and
   * mm_book_refused show it) and must not make an orchestrator restart the bot.
   */
  readonly sticky?: boolean;
}

/**
 * The daemon's /ready rule: ready once the engine has started and reconciled the account with the
 * exchange, every tracked book is synced and none is refused for good; before that, the first reason
 * found. A refused token (a typo'd id answered invalid_params) is a book the operator configured
 * and the bot cannot quote, so it holds readiness back (until subscribed again, or the config fixed):
 * counting tracked tokens alone would answer 200 with such a book, or with every book, refused.
 * A settled market's token is retired, never refused, so it does not count. The books are
 * subscribed before the engine starts, so a started engine with none tracked has none to watch (its
 * markets all settled at start: their books are not subscribed): ready once reconciled.
 * @example startObservabilityServer({ port, registry, readiness: readinessOf({ trackers: [feeds.market.tracker], engine }) })
 */
export function readinessOf(src: ReadinessSources): () => Readiness {
  let latched = false;
  return () => {
    if (latched) return { ready: true };
    const status = src.engine.status();
    if (!status.started) return { ready: false, reason: "engine not started" };
    if (!status.reconciled) return { ready: false, reason: "account not reconciled with the exchange" };
    const refused = src.trackers.flatMap((t) => t.refused?.() ?? []);
    if (refused.length > 0)
      return {
        ready: false,
        reason: `books refused: ${refused.length}; e.g. ${refused[0]} (subscription refused for good)`,
      };
    let total = 0;
    let synced = 0;
    let example: string | undefined;
    for (const t of src.trackers) {
      for (const tokenId of t.tokens()) {
        total++;
        const s = t.state(tokenId);
        if (s?.status === "synced") synced++;
        else example ??= `${tokenId} ${s?.status ?? "untracked"} (${s?.reason ?? "no state"})`;
      }
    }
    if (synced < total)
      return { ready: false, reason: `books not synced: ${synced} of ${total}; e.g. ${example}` };
    if (src.sticky !== false) latched = true;
    return { ready: true };
  };
}
