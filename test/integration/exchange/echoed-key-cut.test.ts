import { afterEach, describe, expect, it } from "vitest";
import { ExchangeError } from "../../../src/exchange/exchange-error.js";
import { createLogger, scrubbingWriter } from "../../../src/observability/logger.js";
import { collectingStream } from "../../support/collecting-stream.js";
import { TEST_API_KEY, TEST_KEY_SECRET, TEST_WALLET } from "../../support/exchange-fixtures.js";
import { startTestServer, type TestServer } from "../../support/http-test-server.js";
import { clientFor } from "./helpers.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/** A proxy's page that echoes the request's X-Api-Key `pad` characters into its body. */
async function echoingProxy(status: number, pad: number): Promise<TestServer> {
  const server = await startTestServer((req, res) => {
    res.writeHead(status, { "content-type": "text/html" });
    res.end(`<html>${"x".repeat(pad)}${String(req.headers["x-api-key"])}</html>`);
  });
  cleanups.push(() => server.close());
  return server;
}

/** The longest run of the key's secret part, 6 characters or more, that text shows. */
function longestSecretRun(text: string): string {
  let best = "";
  for (let i = 0; i < TEST_KEY_SECRET.length; i++) {
    for (let j = i + 6; j <= TEST_KEY_SECRET.length; j++) {
      const run = TEST_KEY_SECRET.slice(i, j);
      if (run.length > best.length && text.includes(run)) best = run;
    }
  }
  return best;
}

// "<html>" (6) + pad + "mm_live_<keyId>_" (25) + k secret characters = the 120 a body is quoted to.
const PADS = [89 - 40, 89 - 20, 89 - 9];

describe("an exchange answer echoing the API key, quoted cut at 120 characters", () => {
  for (const [status, pad] of PADS.flatMap((p) => [401, 200].map((s) => [s, p] as const))) {
    it(`HTTP ${status}, key ${pad + 6} characters in: no part of its secret reaches stderr or the log`, async () => {
      const server = await echoingProxy(status, pad);
      const sink = collectingStream();
      const secrets = [TEST_API_KEY, TEST_KEY_SECRET];
      const logger = createLogger({ level: "debug", pretty: false, destination: sink, secrets });
      const c = clientFor(server, { logger, userWallet: TEST_WALLET, random: () => 0 });
      cleanups.push(() => c.close());
      const err = await c.orders.open().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ExchangeError);
      const e = err as ExchangeError;
      let stderr = "";
      // As a start failure prints it (scrubbed of the configured secrets), and as a log line.
      scrubbingWriter((t) => {
        stderr += t;
      }, secrets)(`${e.message} ${JSON.stringify(e.details)}\n`);
      logger.error({ err: e }, "read failed");
      // The quote is there (the cut is what is tested), and the key's public part with it.
      expect(stderr).toContain("<html>xxxx");
      expect(longestSecretRun(stderr)).toBe("");
      expect(longestSecretRun(sink.text())).toBe("");
    });
  }
});
