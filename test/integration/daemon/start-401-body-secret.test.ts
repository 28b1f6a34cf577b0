import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { abortRequests } from "../../../src/app/lifecycle.js";
import type { CliIo } from "../../../src/cli/command.js";
import { createRunCommand } from "../../../src/cli/run.js";
import type { MockExchange } from "../../../src/mock/mock-exchange.js";
import { sendJson, startTestServer, type TestServer } from "../../support/http-test-server.js";
import { API_KEY, daemonEnv, market, startMock } from "./support.js";

/**
 * A 401 without the exchange's error code goes to stderr with its body quoted. A service or proxy at
 * exchange.baseUrl that echoes the credential it was sent must not put the API key there: main()
 * scrubs stderr of the environment's secrets only, so `mm run` scrubs it of the loaded config's too
 * (a key read from secrets.apiKeyFile), as the logger does.
 * The command is built with a recording forceExit: main()'s `mm run` arms process.exit(1) a second
 * after the failed start, which killed whichever test file the vitest worker ran next.
 */

const ARG = market("arg-vs-fra-final-arg-win");
let dir: string | undefined;
let server: TestServer | undefined;
let mock: MockExchange | undefined;
afterEach(async () => {
  await server?.close();
  await mock?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  server = undefined;
  mock = undefined;
  dir = undefined;
});

function io(env: NodeJS.ProcessEnv): CliIo & { err: () => string } {
  let err = "";
  return {
    stdout: () => undefined,
    stderr: (t) => {
      err += t;
    },
    env,
    cwd: process.cwd(),
    err: () => err,
  };
}

describe("mm run: a 401 whose body echoes the API key (key from secrets.apiKeyFile)", () => {
  it("does not print the key on stderr", async () => {
    mock = await startMock();
    server = await startTestServer((req, res) =>
      sendJson(res, 401, { message: `invalid key ${String(req.headers["x-api-key"])}` }),
    );
    dir = mkdtempSync(join(tmpdir(), "mm-r4-key-"));
    const file = join(dir, "api.key");
    writeFileSync(file, `${API_KEY}\n`, { mode: 0o600 });
    chmodSync(file, 0o600);
    const a = io(
      daemonEnv(mock, [ARG.slug], {
        MM_API_KEY: "",
        MM_API_KEY_FILE: file,
        MM_EXCHANGE_BASE_URL: server.url,
        MM_JOURNAL_ENABLED: "false",
        MM_LOG_LEVEL: "silent",
      }),
    );
    const run = createRunCommand({
      requests: abortRequests(new AbortController().signal),
      forceExit: () => {},
    });
    const code = await run.run([], a);
    expect(code).toBe(1);
    expect(a.err()).toContain("HTTP 401 without the exchange API's error body");
    const secretPart = API_KEY.split("_").slice(3).join("_");
    expect(a.err()).not.toContain(secretPart);
  });
});
