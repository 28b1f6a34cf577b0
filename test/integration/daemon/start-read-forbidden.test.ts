import { describe, expect, it } from "vitest";
import { DAEMON_EXIT } from "../../../src/app/outcome.js";
import { sendJson } from "../../support/http-test-server.js";
import { FRONTED, frontedMocks } from "./rest-front.js";
import { daemonConfig, supervisedRun } from "./support.js";

/*
 * A key without portfolio:read: the exchange answers the start's GET /api/me/positions 403
 * api_key_scope_missing (spec, Authentication step 5; the mock does the same). A missing scope is a
 * property of the key, final as a revoked key is: exit 3, the line naming the code, the scope and the
 * read, not exchange.baseUrl or an outage (the exchange is up and the URL right).
 */

const fronted = frontedMocks();

describe("daemon: a start-up read refused 403 (the key lacks a scope)", () => {
  it("exit 3 naming the scope and the read, not exchange.baseUrl or an outage", async () => {
    const { m, url } = await fronted((req, res) => {
      if (req.path !== "/api/me/positions") return false;
      sendJson(res, 403, {
        error: { code: "api_key_scope_missing", message: "scope portfolio:read required" },
        requiredScope: "portfolio:read",
        have: ["orders:write", "orders:read"],
      });
      return true;
    });
    const config = daemonConfig(m, [FRONTED.slug], { MM_EXCHANGE_BASE_URL: url });
    const { code, stderr: line } = await supervisedRun(config);
    expect(code).toBe(DAEMON_EXIT.fatal);
    expect(line).toContain("api_key_scope_missing");
    expect(line).toContain("lacks portfolio:read, which GET /api/me/positions needs");
    expect(line).not.toContain("check the setting, or whether the exchange is up");
    expect(line).not.toContain("exchange.baseUrl");
  });
});
