import { createServer, type Server } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { createMockExchange, type MockExchange } from "../../src/mock/mock-exchange.js";
import { daemonEnv, market, SCENARIO } from "../integration/daemon/support.js";
import { expectPromptStop, type MmChild, reap, spawnMm } from "./support.js";

let mock: MockExchange | undefined;
let mm: MmChild | undefined;
let api: Server | undefined;
afterEach(async () => {
  await reap(mm);
  await mock?.close();
  api?.closeAllConnections();
  await new Promise<void>((resolve) => (api === undefined ? resolve() : api.close(() => resolve())));
  mm = undefined;
  mock = undefined;
  api = undefined;
});

/**
 * `mm run` against a REST API that does not answer (a hung or very slow exchange) is still reading
 * the markets, before anything is opened. SIGTERM there used to wait for the reads: exit 1 after
 * the whole shutdown.timeoutMs, "the stop overran … some quotes may still be open", though nothing
 * was ever placed. In-process detail: test/integration/daemon/stop-during-market-selection.test.ts.
 */
describe("mm run: SIGTERM while the markets are read at start", () => {
  it("stops promptly with exit 0, not after the whole shutdown budget with exit 1", async () => {
    mock = await createMockExchange({ scenario: SCENARIO, flow: false });
    const requests: string[] = [];
    const server = createServer((req) => {
      requests.push(req.url ?? "");
    });
    api = server;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    const port = typeof address === "object" && address !== null ? address.port : 0;
    const arg = market("arg-vs-fra-final-arg-win");
    mm = spawnMm(
      ["run"],
      daemonEnv(mock, [arg.slug], {
        MM_EXCHANGE_BASE_URL: `http://127.0.0.1:${port}`,
        MM_SHUTDOWN_TIMEOUT_MS: "6000",
        MM_JOURNAL_ENABLED: "false",
      }),
    );
    const end = Date.now() + 15_000;
    while (requests.length === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    expect(requests[0]).toMatch(/^\/api\/markets/);
    await expectPromptStop(mm, 3_000);
  }, 40_000);
});
