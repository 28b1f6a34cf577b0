import type { ExchangeCaller } from "./caller.js";
import { ExchangeError } from "./exchange-error.js";
import type { QueryParams } from "./paths.js";
import { strOrNull } from "./validate.js";

/** The most pages one list read follows when its paging is not shown (a runaway must not loop for ever). */
export const MAX_LIST_PAGES = 100;

/**
 * The pages of a cursor-paged read: `fetch(undefined)` first, then `fetch(nextCursor)` with the cursor
 * passed back unchanged until a page says null. A cursor the server repeats would loop for ever, and
 * more than `maxPages` pages is taken as a runaway: either fails (`malformed_response`, ambiguous).
 * @example for await (const page of cursorPages("/api/orders/history", (cursor) => history({ cursor }))) …
 */
export async function* cursorPages<P extends { readonly nextCursor: string | null }>(
  route: string,
  fetch: (cursor: string | undefined) => Promise<P>,
  maxPages = Number.POSITIVE_INFINITY,
): AsyncGenerator<P, void, undefined> {
  const seen = new Set<string>();
  let page = await fetch(undefined);
  for (let n = 1; ; n++) {
    yield page;
    const next = page.nextCursor;
    if (next === null) return;
    if (seen.has(next) || n >= maxPages) {
      throw new ExchangeError({
        code: "malformed_response",
        message: `GET ${route} ${seen.has(next) ? "repeated a cursor" : `gave more than ${maxPages} pages`}; stopping rather than looping or returning part of the list`,
        outcome: "ambiguous",
        endpoint: `GET ${route}`,
        details: { cursor: next, pages: n },
      });
    }
    seen.add(next);
    page = await fetch(next);
  }
}

/**
 * Every item of a list endpoint whose paging the spec does not show (GET /api/orders/open,
 * /api/me/positions): a bare array is the whole list; a wrapped answer (`{key: [...], nextCursor}`)
 * with a non-null `nextCursor` is followed (cursorPages), passing it back as `cursor` like the
 * spec's paged reads, up to MAX_LIST_PAGES. A truncated list would be worse than a failed read: the
 * reconciler would take every order or position past the first page as gone.
 * @example await allPages(caller, "/api/orders/open", {}, openOrders)
 */
export async function allPages<T>(
  caller: ExchangeCaller,
  route: string,
  query: QueryParams,
  items: (body: unknown, path: string) => T[],
): Promise<T[]> {
  return (await allPagesAt(caller, route, query, items)).items;
}

/** A whole list (allPages) and the exchange's time it was read at. */
export interface ListAt<T> {
  readonly items: T[];
  /**
   * `X-Server-Time` of the first page's answer (ms since epoch on the exchange's clock, at emission);
   * undefined when that answer did not carry a readable one.
   */
  readonly serverTimeMs: number | undefined;
}

/**
 * allPages, also returning the exchange's clock reading of the first page (its `X-Server-Time`): the
 * instant a snapshot read (positions at start) stands for, comparable with the fills' own times.
 * @example const { items, serverTimeMs } = await allPagesAt(caller, "/api/me/positions", {}, positions)
 */
export async function allPagesAt<T>(
  caller: ExchangeCaller,
  route: string,
  query: QueryParams,
  items: (body: unknown, path: string) => T[],
): Promise<ListAt<T>> {
  const fetch = (cursor: string | undefined) =>
    caller.call({
      method: "GET",
      route,
      query: cursor === undefined ? query : { ...query, cursor },
      parse: (b, p, res) => ({
        list: items(b, p),
        nextCursor: nextCursorOf(b, p),
        serverTimeMs: res.serverTimeMs,
      }),
    });
  const out: T[] = [];
  let first = true;
  let serverTimeMs: number | undefined;
  for await (const page of cursorPages(route, fetch, MAX_LIST_PAGES)) {
    if (first) serverTimeMs = page.serverTimeMs;
    first = false;
    for (const x of page.list) out.push(x);
  }
  return { items: out, serverTimeMs };
}

/** A wrapped list answer's `nextCursor` (null when absent or null); a bare array has none. */
export function nextCursorOf(body: unknown, path: string): string | null {
  if (Array.isArray(body) || typeof body !== "object" || body === null) return null;
  return strOrNull(body as Record<string, unknown>, "nextCursor", path);
}
