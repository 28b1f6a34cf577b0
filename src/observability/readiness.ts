import type { BookState } from "../book/book-state.js";
import type { EngineStatus } from "../engine/engine-api.js";
import type { Readiness } from "./http-server.js";

export interface ReadinessSources {
  /** Book trackers of the quoted tokens (BookTracker fits). */
  readonly trackers: readonly { tokens(): string[]; state(tokenId: string): BookState | undefined }[];
  readonly engine: { status(): EngineStatus };
  /**
   * Once ready, stay ready (default true): a book resyncing after a gap is the trading layer's
   * business (it stops quoting that token) and must not make an orchestrator restart the bot.
   */
  readonly sticky?: boolean;
}

/**
 * The daemon's /ready rule: ready once the engine has started and reconciled the account with the
 * exchange and every tracked book is synced; before that, the first reason found. The books are
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
