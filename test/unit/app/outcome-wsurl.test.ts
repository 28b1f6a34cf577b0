import { describe, expect, it } from "vitest";
import { exitCodeOf, fatalAuthCode } from "../../../src/app/outcome.js";
import { fatalUpgrade, GatewayFatalError, upgradeAnswer } from "../../../src/gateway/errors.js";

/*
 * A gateway upgrade refused over HTTP blames the key only when its body carries the exchange's error
 * code: the spec's handshake refusals are 4401 closes, so a bare 401/403 (a proxy's login page, a
 * firewall) or a 404 (a wrong path) is exchange.wsUrl's, exit 1 (session 14; it was exit 3).
 */
describe("fatalAuthCode: an upgrade refused over HTTP", () => {
  const refused = (status: number, body?: string) =>
    fatalUpgrade("market", status, body) as GatewayFatalError;

  it("is not the key's without the exchange's error code (exit 1), whatever the status", () => {
    for (const status of [401, 403, 404]) {
      expect(fatalAuthCode(refused(status))).toBeUndefined();
      expect(exitCodeOf(refused(status))).toBe(1);
    }
    const html = refused(401, "<html><body>Please log in</body></html>");
    expect(html).toMatchObject({ code: "upgrade_rejected", details: { httpStatus: 401 } });
    expect(exitCodeOf(html)).toBe(1);
    expect(upgradeAnswer(html)).toContain('got "<html><body>Please log in</body></html>"');
    expect(upgradeAnswer(refused(404))).toBe("the upgrade was answered HTTP 404 (a wrong path?)");
  });

  it("is the key's, named by the exchange's code, when the body carries one (exit 3)", () => {
    const nested = refused(
      401,
      JSON.stringify({ status: 401, error: { code: "api_key_revoked", message: "x" } }),
    );
    expect(fatalAuthCode(nested)).toBe("api_key_revoked");
    expect(exitCodeOf(nested)).toBe(3);
    const bare = refused(403, JSON.stringify({ code: "api_key_ip_denied", message: "x" }));
    expect(fatalAuthCode(bare)).toBe("api_key_ip_denied");
    // A 404 is a wrong path even with a code in its body; a code that is no identifier is no code.
    expect(exitCodeOf(refused(404, JSON.stringify({ code: "not_found" })))).toBe(1);
    expect(exitCodeOf(refused(401, JSON.stringify({ code: "<b>no</b>" })))).toBe(1);
    expect(fatalAuthCode(new GatewayFatalError("user", "api_key_revoked", "revoked", 4401))).toBe(
      "api_key_revoked",
    );
  });
});
