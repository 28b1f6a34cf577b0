import { afterEach, describe, expect, it } from "vitest";
import { StartReadError } from "../../../src/app/start-errors.js";
import type { MockExchange } from "../../../src/mock/mock-exchange.js";
import { closedPort } from "../../support/http-test-server.js";
import { daemonConfig, market, startFailure, startMock } from "./support.js";

const ARG = market("arg-vs-fra-final-arg-win");

let mock: MockExchange | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

function startError(extra: Record<string, string>): Promise<unknown> {
  return startFailure(daemonConfig(mock as MockExchange, [ARG.slug], extra));
}

describe("daemon: the start's first REST read fails", () => {
  it("nothing listening at exchange.baseUrl: the error names the setting, the URL and ECONNREFUSED", async () => {
    mock = await startMock();
    const baseUrl = `http://127.0.0.1:${await closedPort()}`;
    const err = await startError({ MM_EXCHANGE_BASE_URL: baseUrl });
    expect(err).toBeInstanceOf(StartReadError);
    const e = err as StartReadError;
    expect(e.code).toBe("start_read_failed");
    expect(e.message).toContain(`exchange.baseUrl ${baseUrl}`);
    expect(e.message).toContain("GET /api/markets");
    expect(e.message).toContain("ECONNREFUSED");
    expect(e.details).toMatchObject({
      setting: "exchange.baseUrl",
      url: baseUrl,
      endpoint: "GET /api/markets",
    });
  });

  it("a wrong path under exchange.baseUrl (404 on GET /api/markets): named too", async () => {
    mock = await startMock();
    const baseUrl = `${mock.httpUrl}/nope`;
    const err = await startError({ MM_EXCHANGE_BASE_URL: baseUrl });
    expect(err).toBeInstanceOf(StartReadError);
    expect((err as StartReadError).message).toContain(`exchange.baseUrl ${baseUrl}`);
    expect((err as StartReadError).message).toContain("HTTP 404");
  });
});
