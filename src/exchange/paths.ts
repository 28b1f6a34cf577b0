/** Query values as callers give them; undefined entries are left out. */
export type QueryParams = Readonly<Record<string, string | number | boolean | undefined>>;

/**
 * Fills a route template and appends the query. Path parameters are percent-encoded so an id can never
 * change the path; query values (including opaque cursors) are encoded by URLSearchParams, which the
 * server decodes back to the exact string it issued.
 * @example buildPath("/api/orders/{id}", { id: "a/b" }) // "/api/orders/a%2Fb"
 * @example buildPath("/api/orders/history", {}, { cursor: "x+y", limit: 50 }) // "/api/orders/history?cursor=x%2By&limit=50"
 */
export function buildPath(
  route: string,
  params: Readonly<Record<string, string>> = {},
  query: QueryParams = {},
): string {
  const path = route.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === "")
      throw new RangeError(`missing path parameter ${name} for ${route}`);
    return encodeURIComponent(value);
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) search.append(key, String(value));
  }
  const qs = search.toString();
  return qs === "" ? path : `${path}?${qs}`;
}
