import { eventList, matchList, tagList } from "./assumptions.js";
import type { ExchangeCaller } from "./caller.js";
import type { QueryParams } from "./paths.js";
import { normaliseEvent, normaliseMatch } from "./records.js";
import type { ExchangeEvent, Match, Tag } from "./types.js";

/**
 * Public catalogue reads: events, matches, tags. Their parameters and list bodies are not shown in the
 * spec: the parameters are passed through as given, lists are accepted bare or wrapped
 * (`{events|matches|tags: [...]}`: eventList, matchList, tagList in assumptions.ts), single records
 * are assumed to be the Event / Match record the spec describes inside match responses.
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
      parse: eventList,
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
      parse: matchList,
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
      parse: tagList,
    });
  }
}
