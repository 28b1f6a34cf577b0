import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { abortRequests } from "../../../src/app/lifecycle.js";
import { claimStart } from "../../../src/app/start-claim.js";
import type { CliIo } from "../../../src/cli/command.js";
import { createRunCommand } from "../../../src/cli/run.js";
import { ConfigError } from "../../../src/config/errors.js";
import { loadConfig } from "../../../src/config/load.js";
import { LiveClock } from "../../../src/core/live-clock.js";
import { cleanEnv, type Run, runNode } from "../../support/child-run.js";
import { collectingStream } from "../../support/collecting-stream.js";
import { API_KEY, market, PRIVATE_KEY } from "../daemon/support.js";

/*
 * A second `mm run` of an account whose daemon runs on the same journal logged "metrics at
 * http://127.0.0.1:…/metrics, …" and only then was refused (exit 2): the journal's account lock,
 * local state only, was taken by startDaemon after the metrics server had started. It is now taken
 * before, and reported with the other problems found before the start, before any log line.
 */

/** Nothing listens there: a run that got as far as its market reads would fail with exit 1. */
const BASE_URL = "http://127.0.0.1:9";

let dir: string;
let held: Server | undefined;
const releases: (() => void)[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "mm-lock-first-"));
});
afterEach(async () => {
  for (const r of releases.splice(0)) r();
  const s = held;
  held = undefined;
  if (s !== undefined) await new Promise((ok) => s.close(ok));
  rmSync(dir, { recursive: true, force: true });
});

/** The environment of `mm run` on the journal in `dir`, against BASE_URL. */
function runEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    MM_EXCHANGE_BASE_URL: BASE_URL,
    MM_EXCHANGE_WS_URL: "ws://127.0.0.1:9",
    MM_API_KEY: API_KEY,
    MM_PRIVATE_KEY: PRIVATE_KEY,
    MM_ENGINE_MARKETS: JSON.stringify([market("arg-vs-fra-final-arg-win").slug]),
    MM_JOURNAL_PATH: join(dir, "journal.sqlite"),
    MM_LOG_PRETTY: "false",
    MM_LOG_LEVEL: "info",
    MM_METRICS_PORT: "0",
    ...extra,
  };
}

/** Holds the account's run lock on the journal in this process, as a running mm would. */
function holdLock(): void {
  const config = loadConfig({ env: runEnv() });
  const { lock } = claimStart(
    config,
    { path: join(dir, "journal.sqlite"), snapshotIntervalMs: 60_000, sync: "normal" },
    new LiveClock(),
  );
  releases.push(() => lock?.release());
}

/** `mm run` in a child process (as `npm run mm`), the parent's MM_* variables removed. */
function mmRun(extra: Record<string, string> = {}): Promise<Run> {
  return runNode(["--import", "tsx", "src/cli/main.ts", "run"], cleanEnv(runEnv(extra)));
}

/** A server holding a port of 127.0.0.1, as another program's metrics would. */
async function busyPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  held = server;
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

describe("mm run on a journal whose account another mm runs", () => {
  it("exits 2 naming the holder, and prints no metrics line (nothing logged at all)", async () => {
    holdLock();
    const r = await mmRun();
    expect(r.code).toBe(2);
    expect(r.stdout).not.toContain("metrics at");
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(
      new RegExp(
        `^config error: journal\\.path: account ${BASE_URL.replace(/\./g, "\\.")}\\|0x[0-9a-f]{40} is already being run on the journal at .+ by another mm: pid ${process.pid} `,
      ),
    );
    expect(r.stderr).toContain("stop that run first");
    expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
  });

  it("names a busy metrics port with it, in one exit 2", async () => {
    holdLock();
    const port = await busyPort();
    const r = await mmRun({ MM_METRICS_PORT: String(port) });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    const lines = r.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^config error: journal\.path: account .* is already being run/);
    expect(lines[1]).toBe(
      `config error: metrics.port: port ${port} on 127.0.0.1 is in use (from env MM_METRICS_PORT) (code config_invalid)`,
    );
  });
});

/** `mm run` in this process (a recording forceExit: main()'s would end the vitest worker). */
function runInProcess(env: Record<string, string>): Promise<unknown> {
  const io: CliIo = { stdout: () => undefined, stderr: () => undefined, env, cwd: process.cwd() };
  const run = createRunCommand({
    requests: abortRequests(new AbortController().signal),
    forceExit: () => {},
    logDestination: collectingStream(),
  });
  return run.run([], io).catch((err: unknown) => err);
}

describe("mm run that fails after taking the account lock, the journal free", () => {
  it("releases it when the metrics port cannot be bound (before the daemon owns it)", async () => {
    const port = await busyPort();
    const failure = await runInProcess(runEnv({ MM_METRICS_PORT: String(port) }));
    expect(failure).toBeInstanceOf(ConfigError);
    expect((failure as ConfigError).lines()).toEqual([
      `metrics.port: port ${port} on 127.0.0.1 is in use (from env MM_METRICS_PORT)`,
    ]);
    // Was it left held, this would be refused as "already being run … by another mm".
    holdLock();
  });

  it("releases it when the exchange cannot be read (the daemon's failed start)", async () => {
    // Nothing listens at BASE_URL: the markets read fails, exit 1.
    expect(await runInProcess(runEnv())).toBe(1);
    holdLock();
  });
});
