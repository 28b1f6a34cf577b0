import { afterEach, describe, expect, it } from "vitest";
import { DAEMON_EXIT, exitCodeOf } from "../../../src/app/outcome.js";
import { type ExchangeError, keyRefused } from "../../../src/exchange/exchange-error.js";
import { sendJson, startTestServer } from "../../support/http-test-server.js";
import { clientFor, exchangeError } from "./helpers.js";

/*
 * The spec's catalogue: `wallet_mismatch | 401 | Legacy alias of maker_mismatch on some withdrawal,
 * vault and position endpoints`. maker_mismatch is about the order's maker/vault mapping ("a stale
 * vault mapping during vault deployment", "the vault is not yet deployed"), not the key, and mm
 * reads wallet_mismatch in a 2xx body as "not the key" (KEY_REFUSED_CODES,
 * key-refused-placement.test.ts). keyRefused() took any 401 with a code as the key refused for good:
 * a GET /api/me/positions (every reconcile) answered 401 wallet_mismatch stopped the daemon with
 * exit 3 "the exchange refused the API key for good", a false diagnosis of what the spec describes
 * as a transient deployment state. Found by review (s19).
 */

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

describe("a 401 wallet_mismatch (legacy alias of maker_mismatch) on a position read", () => {
  it("is not the key refused: no onUnauthorized, not exit 3", async () => {
    const server = await startTestServer((_r, res) =>
      sendJson(res, 401, { code: "wallet_mismatch", message: "maker does not match the wallet" }),
    );
    const client = clientFor(server);
    const refused: ExchangeError[] = [];
    client.onUnauthorized((e) => refused.push(e));
    cleanups.push(async () => {
      client.close();
      await server.close();
    });
    const err = await exchangeError(client.me.positions());
    expect(err.code).toBe("wallet_mismatch");
    expect(err.httpStatus).toBe(401);
    expect(keyRefused(err)).toBe(false);
    expect(refused).toEqual([]);
    expect(exitCodeOf(err)).not.toBe(DAEMON_EXIT.fatal);
  });
});
