import { createServer, type Server } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { observed } from "../../../src/app/observed.js";
import { ConfigError } from "../../../src/config/errors.js";
import { loadConfig } from "../../../src/config/load.js";
import { memoryLogger } from "./support.js";

/*
 * `mm paper --port N` with N busy while the default metrics port is busy too (a second `npm start`):
 * the start is refused (exit 2 naming --port), and nothing may be logged before it — README
 * (Running): start problems are named "all in one exit 2 and before any log line". The default
 * port's free-port fallback is said only for a run that starts. (Found by review18 r2-cli.)
 */

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((ok) => s.close(ok));
});

async function busyPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  servers.push(server);
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

describe("paper: a start refused for problems found before it logs nothing", () => {
  it("the default metrics port's free-port fallback is not logged when the start is refused anyway", async () => {
    const port = await busyPort();
    // The default port busy (freePortWhenBusy: nobody asked for it), and a problem already found
    // (as mm paper's busy --port N is).
    const config = loadConfig({ env: { MM_METRICS_PORT: String(port) } });
    const { logger, sink } = memoryLogger();
    const problem = { field: "--port", message: "port 8080 on 127.0.0.1 is in use" };
    const start = () => Promise.reject(new Error("must not start"));
    const r = observed(config, logger, true, start, [problem]);
    await expect(r).rejects.toBeInstanceOf(ConfigError);
    await expect(r).rejects.toThrow("--port: port 8080 on 127.0.0.1 is in use");
    expect(sink.text()).toBe("");
  });
});
