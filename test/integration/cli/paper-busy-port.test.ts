import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { observed } from "../../../src/app/observed.js";
import { startPaperExchange } from "../../../src/app/paper.js";
import type { CliIo } from "../../../src/cli/command.js";
import { main } from "../../../src/cli/main.js";
import { ConfigError } from "../../../src/config/errors.js";
import { loadConfig } from "../../../src/config/load.js";
import { memoryLogger } from "../daemon/support.js";

/*
 * mm paper took a free port without a word when the port the operator asked for was busy: an
 * explicit `--port N` (the mock) or a metrics.port set by a --config file or MM_METRICS_PORT. Whatever
 * was pointed at it (Prometheus at 9464, `mm run` against the mock) then missed it (review 18). An
 * asked-for port that is busy is now exit 2 naming the setting, as a busy metrics.port is for mm run;
 * only the defaults (8080, 9464), which nobody asked for, still fall back to a free port, and say so.
 */

const servers: Server[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((ok) => s.close(ok));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A port of 127.0.0.1 held by another program. */
async function busyPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  servers.push(server);
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

async function paper(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const io: CliIo = {
    stdout: (t) => {
      out += t;
    },
    stderr: (t) => {
      err += t;
    },
    env: { MM_LOG_LEVEL: "info", MM_LOG_PRETTY: "false", ...env },
    cwd: process.cwd(),
  };
  const code = await main(["paper", "--no-flow", ...args], io);
  return { code, out, err };
}

describe("mm paper: a busy port the operator asked for is an error, not a silent free port", () => {
  it("--port N busy: exit 2 naming --port, before anything starts", async () => {
    const port = await busyPort();
    const r = await paper(["--port", String(port)], { MM_METRICS_PORT: "0" });
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      `config error: --port: port ${port} on 127.0.0.1 is in use: leave --port out (8080, or a free port when it is busy) or use --port 0 for a free one (code config_invalid)\n`,
    );
    expect(r.out).not.toContain("metrics at");
  });

  it("MM_METRICS_PORT busy: exit 2 naming metrics.port and the variable, as for mm run", async () => {
    const port = await busyPort();
    const r = await paper(["--port", "0"], { MM_METRICS_PORT: String(port) });
    expect(r.code).toBe(2);
    // Was: "…is in use" alone, the variable unnamed (an exported MM_METRICS_PORT is easily forgotten).
    expect(r.err).toBe(
      `config error: metrics.port: port ${port} on 127.0.0.1 is in use (from env MM_METRICS_PORT) (code config_invalid)\n`,
    );
  });

  it("metrics.port from a --config file busy: exit 2 too", async () => {
    const port = await busyPort();
    const dir = mkdtempSync(join(tmpdir(), "mm-paper-port-"));
    dirs.push(dir);
    const file = join(dir, "paper-port.json");
    writeFileSync(file, JSON.stringify({ metrics: { port } }));
    const r = await paper(["--port", "0", "--config", file], {});
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      `config error: metrics.port: port ${port} on 127.0.0.1 is in use (in ${file}) (code config_invalid)\n`,
    );
  });
});

describe("startPaperExchange with an asked-for port taken after the CLI's check", () => {
  it("is the same configuration error naming --port, not an unexpected one (exit 1)", async () => {
    const port = await busyPort();
    const { logger } = memoryLogger();
    const started = startPaperExchange({
      env: {},
      cwd: process.cwd(),
      logger,
      port,
      portAsked: true,
      flow: false,
    });
    await expect(started).rejects.toBeInstanceOf(ConfigError);
    await expect(started).rejects.toThrow(`--port: port ${port} on 127.0.0.1 is in use`);
  });
});

describe("the default metrics port busy in paper mode (nobody asked for it)", () => {
  it("takes a free port and says so before the URL", async () => {
    const port = await busyPort();
    const config = loadConfig({ env: { MM_METRICS_PORT: String(port) } });
    const { logger, sink } = memoryLogger();
    const start = () => Promise.reject(new Error("not started"));
    await expect(observed(config, logger, true, start)).rejects.toThrow("not started");
    expect(sink.text()).toContain(`metrics: port ${port} on 127.0.0.1 is busy: a free port is taken`);
    expect(sink.text()).toMatch(/metrics at http:\/\/127\.0\.0\.1:\d+\/metrics/);
    expect(sink.text()).not.toContain(`127.0.0.1:${port}/metrics`);
  });
});
