import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const PROMETHEUS_BIN = "/usr/bin/prometheus";
export const PROMTOOL_BIN = "/usr/bin/promtool";

/** Both binaries of Debian's `prometheus` package are present. */
export function prometheusInstalled(): boolean {
  return existsSync(PROMETHEUS_BIN) && existsSync(PROMTOOL_BIN);
}

/** The answer of /api/v1/query: HTTP status, and the result when it parsed. */
export interface QueryAnswer {
  readonly httpStatus: number;
  readonly status: string;
  readonly error?: string;
  readonly result: { metric: Record<string, string>; value: [number, string] }[];
}

/** A Prometheus on 127.0.0.1 with its own temp storage. */
export interface PrometheusServer {
  readonly url: string;
  query(expr: string): Promise<QueryAnswer>;
  /** /api/v1/rules: every loaded rule with its query and health. */
  rules(): Promise<{ name: string; query: string; health: string; lastError?: string }[]>;
  /** Polls `expr` until `ok(answer)` or the deadline; returns the last answer. */
  waitFor(expr: string, ok: (a: QueryAnswer) => boolean, ms: number): Promise<QueryAnswer>;
  /** Its stderr so far (diagnostics). */
  log(): string;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr !== null ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Starts /usr/bin/prometheus on a free loopback port, scraping `target` (host:port) every second
 * as job `mm` and evaluating `ruleFiles` every second; resolves once /-/ready answers 200.
 */
export async function startPrometheus(
  target: string,
  ruleFiles: readonly string[],
): Promise<PrometheusServer> {
  const dir = mkdtempSync(join(tmpdir(), "mm-prometheus-"));
  const port = await freePort();
  const config = [
    "global:",
    "  scrape_interval: 1s",
    "  scrape_timeout: 1s",
    "  evaluation_interval: 1s",
    "rule_files:",
    ...ruleFiles.map((f) => `  - ${JSON.stringify(f)}`),
    "scrape_configs:",
    "  - job_name: mm",
    "    static_configs:",
    `      - targets: [${JSON.stringify(target)}]`,
    "",
  ].join("\n");
  writeFileSync(join(dir, "prometheus.yml"), config);
  const child: ChildProcess = spawn(
    PROMETHEUS_BIN,
    [
      `--config.file=${join(dir, "prometheus.yml")}`,
      `--storage.tsdb.path=${join(dir, "data")}`,
      `--web.listen-address=127.0.0.1:${port}`,
      "--log.level=warn",
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr?.on("data", (c: Buffer) => {
    stderr += c.toString("utf8");
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const server: PrometheusServer = {
    url,
    async query(expr) {
      const res = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(expr)}`);
      const body = (await res.json()) as { status: string; error?: string; data?: { result?: unknown } };
      const result = Array.isArray(body.data?.result) ? (body.data.result as QueryAnswer["result"]) : [];
      return {
        httpStatus: res.status,
        status: body.status,
        result,
        ...(body.error === undefined ? {} : { error: body.error }),
      };
    },
    async rules() {
      const res = await fetch(`${url}/api/v1/rules`);
      const body = (await res.json()) as {
        data: { groups: { rules: { name: string; query: string; health: string; lastError?: string }[] }[] };
      };
      return body.data.groups.flatMap((g) => g.rules);
    },
    async waitFor(expr, ok, ms) {
      const end = Date.now() + ms;
      for (;;) {
        const a = await server.query(expr);
        if (ok(a) || Date.now() > end) return a;
        await new Promise((r) => setTimeout(r, 250));
      }
    },
    log: () => stderr,
    async close() {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
  const end = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`prometheus exited with ${child.exitCode}: ${stderr}`);
    const ready = await fetch(`${url}/-/ready`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ready) return server;
    if (Date.now() > end) {
      await server.close();
      throw new Error(`prometheus not ready within 20 s: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
