import { describe, expect, it } from "vitest";
import { exitCodeOf, fatalAuthCode } from "../../../src/app/outcome.js";
import { fatalUpgrade, GatewayFatalError } from "../../../src/gateway/errors.js";

/* A gateway upgrade refused over HTTP blames the key only for 401/403: a 404 is a wrong exchange.wsUrl. */
describe("fatalAuthCode: an upgrade refused over HTTP", () => {
  it("is the key's for 401 and 403, a wrong URL (exit 1) for 404", () => {
    const refused = (status: number) => fatalUpgrade("market", status) as GatewayFatalError;
    expect(fatalAuthCode(refused(401))).toBe("upgrade_rejected");
    expect(fatalAuthCode(refused(403))).toBe("upgrade_rejected");
    expect(fatalAuthCode(refused(404))).toBeUndefined();
    expect(exitCodeOf(refused(404))).toBe(1);
    expect(exitCodeOf(refused(403))).toBe(3);
    expect(fatalAuthCode(new GatewayFatalError("user", "api_key_revoked", "revoked", 4401))).toBe(
      "api_key_revoked",
    );
  });
});
