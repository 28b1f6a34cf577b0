import { describe, expect, it } from "vitest";
import { DAEMON_EXIT } from "../../../src/app/outcome.js";
import { sendJson } from "../../support/http-test-server.js";
import { FRONTED, frontedMocks } from "./rest-front.js";
import { daemonConfig, supervisedRun } from "./support.js";

/*
 * A key without portfolio:read: the exchange answers the start's GET /api/me/positions 403
 * api_key_scope_missing (spec, Authentication step 5; the mock does the same). The start's line names
 * the read and the code, and points at the key: the exchange is up and the URL right.
 */

const fronted = frontedMocks();

describe("daemon: a start-up read refused 403 (the key lacks a scope)", () => {
  it("the line does not send the operator to exchange.baseUrl or an outage", async () => {
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
    expect(code).toBe(DAEMON_EXIT.failed);
    expect(line).toContain("api_key_scope_missing");
    expect(line).not.toContain("check the setting, or whether the exchange is up");
    expect(line).toContain("check the key's scopes");
  });
});
