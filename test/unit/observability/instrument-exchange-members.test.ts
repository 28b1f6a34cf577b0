import { describe, expect, it } from "vitest";
import { LiveClock } from "../../../src/core/live-clock.js";
import { HttpExchange } from "../../../src/engine/http-exchange.js";
import { ExchangeHttpClient } from "../../../src/exchange/client.js";
import { instrumentExchange } from "../../../src/observability/instrument-exchange.js";
import { silentLogger } from "../../support/exchange-fixtures.js";

/**
 * `mm run` and `mm paper` always run with metrics, so the engine's port is the instrumented one
 * (app/daemon.ts). The decorator copies the port's optional members one by one, and one it misses
 * is silently gone for the engine: `marketRecord` was, so in production a silent resolution was
 * never read from the market's record (found by review). Every method of HttpExchange must survive.
 */
describe("instrumentExchange", () => {
  it("keeps every method of the HTTP port (none is dropped for the engine)", () => {
    const client = new ExchangeHttpClient({
      baseUrl: "http://127.0.0.1:9",
      apiKey: "k",
      clock: new LiveClock(),
      logger: silentLogger(),
      timeoutMs: 1_000,
    });
    const port = new HttpExchange(client);
    const methods = Object.getOwnPropertyNames(HttpExchange.prototype).filter((n) => n !== "constructor");
    expect(methods).toContain("marketRecord");
    const wrapped = instrumentExchange(port, {
      observeHttp: () => {},
      onPlacementSending: () => {},
      onPlacementAnswered: () => {},
    }) as unknown as Record<string, unknown>;
    expect(methods.filter((m) => typeof wrapped[m] !== "function")).toEqual([]);
  });
});
