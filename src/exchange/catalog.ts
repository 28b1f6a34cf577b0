import type { ExchangeCaller } from "./caller.js";
import type { QueryParams } from "./paths.js";
import { normaliseEvent, normaliseMatch, normaliseTag } from "./records.js";
import type { ExchangeEvent, Match, Tag } from "./types.js";
import { listOf } from "./validate.js";

/**
 * Public catalogue reads: events, matches, tags. Their parameters and list bodies are not shown in the
 * spec: lists are accepted bare or wrapped (`{events|matches|tags: [...]}`), single records are assumed
 * to be the Event / Match record the spec describes inside match responses.
 */
export class CatalogApi {
  readonly #caller: ExchangeCaller;

  constructor(caller: ExchangeCaller) {
    this.#caller = caller;
  }

  /** GET /api/events. */
  events(query: QueryParams = {}): Promise<ExchangeEvent[]> {
    return this.#caller.call({
      method: "GET",
      route: "/api/events",
      query,
      parse: (b, p) => listOf(b, "events", p, normaliseEvent),
    });
  }

  /** GET /api/events/{id}. */
  event(id: string): Promise<ExchangeEvent> {
    return this.#caller.call({
      method: "GET",
      route: "/api/events/{id}",
      params: { id },
      parse: normaliseEvent,
    });
  }

  /** GET /api/matches. */
  matches(query: QueryParams = {}): Promise<Match[]> {
    return this.#caller.call({
      method: "GET",
      route: "/api/matches",
      query,
      parse: (b, p) => listOf(b, "matches", p, normaliseMatch),
    });
  }

  /**
   * GET /api/matches/{id}; 404 `match_not_found` when unknown or without public-status markets.
   * @example const m = await client.catalog.match(id); const markets = m.events.flatMap((e) => e.markets);
   */
  match(id: string): Promise<Match> {
    return this.#caller.call({
      method: "GET",
      route: "/api/matches/{id}",
      params: { id },
      parse: normaliseMatch,
    });
  }

  /** GET /api/tags. */
  tags(): Promise<Tag[]> {
    return this.#caller.call({
      method: "GET",
      route: "/api/tags",
      parse: (b, p) => listOf(b, "tags", p, normaliseTag),
    });
  }
}
