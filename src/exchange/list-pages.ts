import type { ExchangeCaller } from "./caller.js";
import { ExchangeError } from "./exchange-error.js";
import type { QueryParams } from "./paths.js";
import { strOrNull } from "./validate.js";

/** The most pages one list read follows (a runaway cursor must not loop for ever). */
export const MAX_LIST_PAGES = 100;

/**
 * Every item of a list endpoint whose paging the spec does not show (GET /api/orders/open,
 * /api/me/positions): a bare array is the whole list; a wrapped answer (`{key: [...], nextCursor}`)
 * with a non-null `nextCursor` is followed, passing it back unchanged as `cursor` like the spec's
 * paged reads, until a page says null. A truncated list would be worse than a failed read: the
 * reconciler would take every order or position past the first page as gone. So a repeated cursor or
 * more than MAX_LIST_PAGES pages fails (`malformed_response`, ambiguous) instead.
 * @example await allPages(caller, "/api/orders/open", {}, openOrders)
 */
export async function allPages<T>(
  caller: ExchangeCaller,
  route: string,
  query: QueryParams,
  items: (body: unknown, path: string) => T[],
): Promise<T[]> {
  const out: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 1; ; page++) {
    const q = cursor === undefined ? query : { ...query, cursor };
    const { list, next } = await caller.call({
      method: "GET",
      route,
      query: q,
      parse: (b, p) => ({ list: items(b, p), next: nextCursorOf(b, p) }),
    });
    for (const x of list) out.push(x);
    if (next === null) return out;
    if (seen.has(next) || page >= MAX_LIST_PAGES) {
      throw new ExchangeError({
        code: "malformed_response",
        message: `GET ${route} ${seen.has(next) ? "repeated a cursor" : `gave more than ${MAX_LIST_PAGES} pages`}; stopping rather than returning part of the list`,
        outcome: "ambiguous",
        endpoint: `GET ${route}`,
        details: { cursor: next, pages: page },
      });
    }
    seen.add(next);
    cursor = next;
  }
}

/** A wrapped list answer's `nextCursor` (null when absent or null); a bare array has none. */
export function nextCursorOf(body: unknown, path: string): string | null {
  if (Array.isArray(body) || typeof body !== "object" || body === null) return null;
  return strOrNull(body as Record<string, unknown>, "nextCursor", path);
}
