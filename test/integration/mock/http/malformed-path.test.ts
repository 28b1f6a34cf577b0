import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MockHarness } from "./harness.js";

/**
 * Spec, Conventions 8: every response carries X-API-Version, X-Server-Time and X-Request-Id; a
 * malformed request is a 400. A path parameter with a broken percent-escape makes
 * `decodeURIComponent` throw inside `findRoute` (src/mock/http/route.ts `matchPattern`), which
 * src/mock/http/server.ts calls outside its try/catch: the request used to be answered with a bare
 * 500 (no body, none of the convention headers), which a client classifies as a server fault
 * (found by review). It is a 404 now, like any path that names nothing.
 */

let h: MockHarness;
beforeAll(async () => {
  h = await MockHarness.start();
});
afterAll(() => h.close());

describe("mock HTTP: a malformed percent-escape in a path parameter", () => {
  it("GET /api/orders/%E0%A4%A is a 4xx carrying the convention headers, not a headerless 500", async () => {
    const res = await fetch(`${h.url}/api/orders/%E0%A4%A`, { headers: { "X-Api-Key": h.keys.trader } });
    await res.text();
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.headers.get("x-api-version")).toBe("2026-04-01");
    expect(res.headers.get("x-request-id")).not.toBeNull();
  });

  it("GET /api/orders/%ZZ/fills (another broken escape) is not a 500 either", async () => {
    const res = await fetch(`${h.url}/api/orders/%ZZ/fills`, { headers: { "X-Api-Key": h.keys.trader } });
    await res.text();
    expect(res.status).toBeLessThan(500);
    expect(res.headers.get("x-request-id")).not.toBeNull();
  });
});
