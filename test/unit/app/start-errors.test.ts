import { describe, expect, it } from "vitest";
import { exitCodeOf, fatalAuthCode } from "../../../src/app/outcome.js";
import { engineStartError, StartReadError, startReadError } from "../../../src/app/start-errors.js";
import { ConfigError } from "../../../src/config/errors.js";
import { MmError } from "../../../src/core/errors.js";
import { publicUrl } from "../../../src/core/public-url.js";
import { ExchangeError } from "../../../src/exchange/exchange-error.js";

/** A transport failure as the HTTP client throws it (the node error as its cause). */
function connectFailed(message: string, errno: string): ExchangeError {
  const cause = Object.assign(new Error(message), { code: errno });
  return new ExchangeError({
    code: "connect_failed",
    message: `GET /api/markets: could not connect (${message})`,
    outcome: "retryable",
    endpoint: "GET /api/markets",
    cause,
  });
}

describe("startReadError", () => {
  it("names exchange.baseUrl, the URL, the endpoint and the cause of a host that does not resolve", () => {
    const err = startReadError(
      connectFailed("getaddrinfo ENOTFOUND exchange.invalid", "ENOTFOUND"),
      "https://exchange.invalid/v1",
    ) as StartReadError;
    expect(err).toBeInstanceOf(StartReadError);
    expect(err.message).toBe(
      "exchange.baseUrl https://exchange.invalid/v1: GET /api/markets: could not connect " +
        "(getaddrinfo ENOTFOUND exchange.invalid); check the setting, or whether the exchange is up",
    );
    expect(err.details).toEqual({
      setting: "exchange.baseUrl",
      url: "https://exchange.invalid/v1",
      endpoint: "GET /api/markets",
      cause: "ENOTFOUND",
    });
  });

  it("adds the error code a TLS failure's message leaves out", () => {
    const err = startReadError(
      connectFailed("unable to verify the first certificate", "UNABLE_TO_VERIFY_LEAF_SIGNATURE"),
      "https://127.0.0.1:9",
    ) as StartReadError;
    expect(err.message).toContain(
      "(unable to verify the first certificate) [UNABLE_TO_VERIFY_LEAF_SIGNATURE]",
    );
  });

  it("names the HTTP status of an answer (a wrong path answers 404)", () => {
    const e = new ExchangeError({
      code: "not_found",
      message: "no route /nope/api/markets",
      outcome: "rejected",
      endpoint: "GET /api/markets",
      httpStatus: 404,
    });
    expect((startReadError(e, "http://127.0.0.1:9/nope") as StartReadError).message).toBe(
      "exchange.baseUrl http://127.0.0.1:9/nope: GET /api/markets: HTTP 404 not_found: no route /nope/api/markets; " +
        "check the setting, or whether the exchange is up",
    );
  });

  it("leaves a refused key (401: exit 3) and a ConfigError (exit 2) as they are", () => {
    const unauthorized = new ExchangeError({
      code: "api_key_revoked",
      message: "revoked",
      outcome: "rejected",
      endpoint: "GET /api/markets",
      httpStatus: 401,
    });
    const config = new ConfigError([{ field: "engine.markets", message: "nothing to quote" }]);
    expect(startReadError(unauthorized, "http://127.0.0.1:9")).toBe(unauthorized);
    expect(startReadError(config, "http://127.0.0.1:9")).toBe(config);
  });

  it("names a 401 without the exchange's error body (another service, a proxy's page): not the key's", () => {
    // As the client reads it: no code in the body, a snippet of the body in details.
    const page = new ExchangeError({
      code: "http_error",
      message: "HTTP 401 without an error code",
      outcome: "rejected",
      endpoint: "GET /api/markets",
      path: "/api/markets?limit=500",
      httpStatus: 401,
      details: { body: '"<html>Sign in</html>"' },
    });
    const err = startReadError(page, "http://127.0.0.1:9") as StartReadError;
    expect(err).toBeInstanceOf(StartReadError);
    expect(err.message).toBe(
      "exchange.baseUrl http://127.0.0.1:9: GET /api/markets at http://127.0.0.1:9/api/markets?limit=500: " +
        'HTTP 401 without the exchange API\'s error body: got "<html>Sign in</html>"; the answer is not the ' +
        "exchange API's (its 401s carry a code naming the key's problem): check the setting",
    );
    expect(err.details).toMatchObject({ httpStatus: 401, url: "http://127.0.0.1:9" });
    expect(exitCodeOf(page)).toBe(1);
    expect(fatalAuthCode(page)).toBeUndefined();
  });

  it("names a 401 wallet_mismatch (the alias of maker_mismatch) by its code, pointing at the wallet: exit 1", () => {
    const mismatch = new ExchangeError({
      code: "wallet_mismatch",
      message: "GET /api/me/positions: maker does not match the wallet",
      outcome: "rejected",
      endpoint: "GET /api/me/positions",
      path: "/api/me/positions",
      httpStatus: 401,
    });
    const err = startReadError(mismatch, "http://127.0.0.1:9") as StartReadError;
    expect(err).toBeInstanceOf(StartReadError);
    expect(err.message).toBe(
      "exchange.baseUrl http://127.0.0.1:9: GET /api/me/positions at http://127.0.0.1:9/api/me/positions: " +
        "HTTP 401 wallet_mismatch: maker does not match the wallet; the exchange refused the wallet's maker " +
        "or vault mapping (a vault still deploying passes): try again, or check the wallet",
    );
    expect(exitCodeOf(mismatch)).toBe(1);
    expect(fatalAuthCode(mismatch)).toBeUndefined();
  });
});

/** A 200 whose body does not fit, as the HTTP client throws it for `endpoint` read at `path`. */
function malformed(endpoint: string, path: string, field: string): ExchangeError {
  return new ExchangeError({
    code: "malformed_response",
    message: `${endpoint}.${field}: expected an array, got undefined`,
    outcome: "ambiguous",
    endpoint,
    path,
    httpStatus: 200,
  });
}

describe("engineStartError", () => {
  it("names a failed read of the engine's start like the markets read, with what was read", () => {
    const err = engineStartError(
      malformed("GET /api/me/positions", "/api/me/positions", "positions"),
      "http://127.0.0.1:9/",
    ) as StartReadError;
    expect(err).toBeInstanceOf(StartReadError);
    expect(err.subject).toBe("the wallet's positions");
    expect(err.message).toBe(
      "exchange.baseUrl http://127.0.0.1:9/: GET /api/me/positions at http://127.0.0.1:9/api/me/positions: " +
        "HTTP 200 malformed_response: body.positions: expected an array, got undefined; " +
        "the answer is not the exchange API's: check the setting",
    );
  });

  it("takes the read out of the start-up reconcile's engine_start_failed", () => {
    const cause = malformed("GET /api/me/trades", "/api/me/trades?limit=200", "trades");
    const wrapped = new MmError("engine_start_failed", "the start-up reconcile failed", {}, { cause });
    const err = engineStartError(wrapped, "http://127.0.0.1:9") as StartReadError;
    expect(err).toBeInstanceOf(StartReadError);
    expect(err.subject).toBe("the wallet's trades");
    expect(err.details).toMatchObject({
      readUrl: "http://127.0.0.1:9/api/me/trades?limit=200",
      httpStatus: 200,
    });
  });

  it("leaves a refused key (wrapped or not), a failure that is no read, and an unknown read's subject generic", () => {
    const unauthorized = new ExchangeError({
      code: "api_key_revoked",
      message: "revoked",
      outcome: "rejected",
      endpoint: "GET /api/me/trades",
      httpStatus: 401,
    });
    const wrapped401 = new MmError(
      "engine_start_failed",
      "the start-up reconcile failed",
      {},
      { cause: unauthorized },
    );
    const bug = new MmError(
      "engine_start_failed",
      "the start-up reconcile failed",
      {},
      { cause: new TypeError("x") },
    );
    expect(engineStartError(unauthorized, "http://127.0.0.1:9")).toBe(unauthorized);
    expect(engineStartError(wrapped401, "http://127.0.0.1:9")).toBe(wrapped401);
    expect(engineStartError(bug, "http://127.0.0.1:9")).toBe(bug);
    const other = engineStartError(
      malformed("GET /api/me/vault", "/api/me/vault", "vault"),
      "http://127.0.0.1:9",
    );
    expect((other as StartReadError).subject).toBe("the exchange");
  });
});

describe("publicUrl", () => {
  it("drops credentials, query and fragment", () => {
    expect(publicUrl("https://user:pa55@ex.example/api?token=abc#x")).toBe("https://ex.example/api");
    expect(publicUrl("ws://127.0.0.1:1")).toBe("ws://127.0.0.1:1");
    expect(publicUrl("not a url")).toBe("(unparsable URL)");
  });
});
