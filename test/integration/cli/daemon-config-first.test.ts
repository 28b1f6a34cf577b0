import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cleanEnv, ROOT, type Run, runNode } from "../../support/child-run.js";

/*
 * review17 Q2: `mm run` and `mm paper` stopping on a configuration or scenario problem (exit 2)
 * printed "metrics at http://127.0.0.1:9464/metrics, …" first, as if the run had started: the
 * missing start settings (keys, engine.markets) and paper's scenario were checked only after the
 * metrics server was up; a busy metrics port was reported alone, and the other problems only by the
 * next attempt. Now every problem is named at once, and nothing is logged before.
 */

/** `mm …` in a child process (as `npm run mm`), the parent's MM_* variables removed. */
function mm(args: string[], extra: Record<string, string>): Promise<Run> {
  const env = cleanEnv({ MM_LOG_PRETTY: "false", MM_LOG_LEVEL: "info", ...extra });
  return runNode(["--import", "tsx", "src/cli/main.ts", ...args], env);
}

/** A server holding a port of 127.0.0.1, as another program's metrics would. */
async function busyPort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return { port: address.port, server };
}

const MISSING = [
  "config error: secrets.apiKey: required: set MM_API_KEY or secrets.apiKeyFile (MM_API_KEY_FILE) (code config_invalid)",
  "config error: secrets.privateKey: required: set MM_PRIVATE_KEY or secrets.privateKeyFile (MM_PRIVATE_KEY_FILE) (code config_invalid)",
  'config error: engine.markets: nothing to quote: list market slugs, or ["*"] for every market (code config_invalid)',
];

let dir: string;
let held: Server | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "mm-config-first-"));
});
afterEach(async () => {
  rmSync(dir, { recursive: true, force: true });
  const s = held;
  held = undefined;
  if (s !== undefined) await new Promise((ok) => s.close(ok));
});

describe("mm run / mm paper check the configuration before the metrics server (review17 Q2)", () => {
  it("mm run without keys or markets: exit 2 naming all three, and no metrics line", async () => {
    const r = await mm(["run"], { MM_METRICS_PORT: "0", MM_EXCHANGE_BASE_URL: "http://127.0.0.1:9" });
    expect(r.code).toBe(2);
    expect(r.stdout).not.toContain("metrics at");
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(`${MISSING.join("\n")}\n`);
  });

  it("mm run with the metrics port busy too: the port is named with the other problems", async () => {
    const busy = await busyPort();
    held = busy.server;
    const r = await mm(["run"], {
      MM_METRICS_PORT: String(busy.port),
      MM_EXCHANGE_BASE_URL: "http://127.0.0.1:9",
    });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      `${[...MISSING, `config error: metrics.port: port ${busy.port} on 127.0.0.1 is in use (from env MM_METRICS_PORT) (code config_invalid)`].join("\n")}\n`,
    );
  });

  it("mm paper with a scenario it cannot trade with: exit 2, and no metrics line", async () => {
    const scenario = JSON.parse(readFileSync(join(ROOT, "config/mock/default.json"), "utf8")) as {
      wallets: { banned: boolean }[];
    };
    (scenario.wallets[0] as { banned: boolean }).banned = true;
    const file = join(dir, "banned.json");
    writeFileSync(file, JSON.stringify(scenario));
    const r = await mm(["paper", "--port", "0", "--no-flow", "--scenario", file], { MM_METRICS_PORT: "0" });
    expect(r.code).toBe(2);
    expect(r.stdout).not.toContain("metrics at");
    expect(r.stderr).toMatch(
      /^config error: scenario: paper mode signs as the first wallet 0x[0-9a-f]{40}, which is banned \(code config_invalid\)\n/,
    );
  });
});
