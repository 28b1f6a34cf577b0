import { describe, expect, it } from "vitest";
import { startDaemon } from "../../../src/app/daemon.js";
import { DAEMON_EXIT } from "../../../src/app/outcome.js";
import { sendJson } from "../../support/http-test-server.js";
import { FRONTED, frontedMocks } from "./rest-front.js";
import { daemonConfig, daemonSlots, memoryLogger, openOnMock, supervisedRun, waitFor } from "./support.js";

/*
 * An exchange that checks markets:read on the market reads when a key is sent, and the key lacks it:
 * GET /api/markets answers 403 api_key_scope_missing. The spec makes those reads public ("no key
 * needed; a key is accepted and raises the rate ceiling"), and a running daemon only warns when one
 * is refused so. The start used to exit 3 on it; it now reads the markets again without the key,
 * warns once naming the scope, and quotes.
 */

const fronted = frontedMocks();
const SCOPE_REFUSAL = {
  error: { code: "api_key_scope_missing", message: "scope markets:read required" },
  requiredScope: "markets:read",
  have: ["orders:write", "orders:read", "portfolio:read"],
};
const slots = daemonSlots();

describe("daemon: the start's market reads refused to the key for a scope", () => {
  it("reads them without the key, warns once naming the scope, and starts", async () => {
    const { m, url, front } = await fronted((req, res) => {
      if (!req.path.startsWith("/api/markets") || req.headers["x-api-key"] === undefined) return false;
      sendJson(res, 403, SCOPE_REFUSAL);
      return true;
    });
    const { logger, sink } = memoryLogger();
    const config = daemonConfig(m, [FRONTED.slug], { MM_EXCHANGE_BASE_URL: url });
    // Was: rejected with the 403 (exit 3), nothing quoted.
    const d = await startDaemon(config, { logger });
    slots.daemon = d;
    slots.mock = undefined;
    expect(d.markets.slugs).toEqual([FRONTED.slug]);
    await waitFor(() => openOnMock(m, FRONTED.yesTokenId).length > 0, 5_000, "quotes");
    const reads = front.requests.filter((r) => r.path === "/api/markets");
    expect(reads.map((r) => r.headers["x-api-key"] === undefined)).toEqual([false, true]);
    const warns = sink.records().filter((r) => r.code === "api_key_scope_missing");
    expect(warns).toHaveLength(1);
    expect(warns[0]).toMatchObject({
      level: 40,
      endpoint: "GET /api/markets",
      requiredScope: "markets:read",
    });
    expect(String(warns[0]?.msg)).toContain("reading the markets without the key");
    expect(String(warns[0]?.msg)).toContain("600 per 60 s");
  });

  it("makes the running market reads without the key too: the open-market sweep reads, no refusal", async () => {
    const { m, url, front } = await fronted((req, res) => {
      if (!req.path.startsWith("/api/markets") || req.headers["x-api-key"] === undefined) return false;
      sendJson(res, 403, SCOPE_REFUSAL);
      return true;
    });
    const { logger, sink } = memoryLogger();
    const config = daemonConfig(m, [FRONTED.slug], {
      MM_EXCHANGE_BASE_URL: url,
      MM_ENGINE_MARKET_RECHECK_MS: "1000",
    });
    const d = await startDaemon(config, { logger });
    slots.daemon = d;
    slots.mock = undefined;
    const lists = () => front.requests.filter((r) => r.path === "/api/markets");
    // The start's two reads (keyed, refused; keyless), then the sweep's.
    await waitFor(() => lists().length >= 4, 5_000, "two sweeps");
    // Was: every sweep read sent with the key, refused all run (MmMarketStatusReadsFailing).
    expect(lists().map((r) => r.headers["x-api-key"] === undefined)).toEqual([
      false,
      ...lists()
        .slice(1)
        .map(() => true),
    ]);
    expect(sink.records().filter((r) => r.code === "api_key_scope_missing")).toHaveLength(1);
    expect(String(sink.records().find((r) => r.code === "api_key_scope_missing")?.msg)).toContain(
      "at start and while running",
    );
  });

  it("exits 3 naming the scope when the exchange wants a key for them after all (401 without one)", async () => {
    const { m, url } = await fronted((req, res) => {
      if (!req.path.startsWith("/api/markets")) return false;
      if (req.headers["x-api-key"] === undefined) {
        sendJson(res, 401, { code: "auth_required", message: "X-Api-Key required" });
      } else sendJson(res, 403, SCOPE_REFUSAL);
      return true;
    });
    const run = await supervisedRun(daemonConfig(m, [FRONTED.slug], { MM_EXCHANGE_BASE_URL: url }));
    expect(run.code).toBe(DAEMON_EXIT.fatal);
    expect(run.stderr).toContain(
      "api_key_scope_missing: the API key lacks markets:read, which GET /api/markets needs",
    );
    expect(run.stderr).not.toContain("auth_required");
  });
});
