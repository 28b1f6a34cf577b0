import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { packageRoot } from "../../src/config/paths.js";
import { createMockExchange, type MockExchange } from "../../src/mock/mock-exchange.js";
import { daemonEnv, openOnMock, SCENARIO, waitFor } from "../integration/daemon/support.js";
import { childEnv } from "./support.js";

/** util-linux `script` gives the child a real terminal; without it this test cannot run. */
const hasScript = (() => {
  try {
    execFileSync("script", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

/**
 * What an interactive shell does with its foreground job when its terminal hangs up: it relays the
 * SIGHUP it gets as the terminal's controlling process, and the kernel sends another to the job
 * when the shell exits (here: the trap relays two). The job's exit code goes to `$DIR/code`.
 */
const SHELL_JOB = [
  "trap 'kill -HUP $pid; kill -HUP $pid' HUP",
  '"$MM_NODE" --import tsx src/cli/main.ts run & pid=$!',
  'echo $pid > "$DIR/pid"',
  "while :; do wait $pid; code=$?; kill -0 $pid 2>/dev/null || break; done",
  'echo $code > "$DIR/code"',
].join("\n");

let mock: MockExchange | undefined;
let term: ChildProcess | undefined;
let dir: string | undefined;
afterEach(async () => {
  term?.kill("SIGKILL");
  const pidFile = dir === undefined ? undefined : join(dir, "pid");
  if (pidFile !== undefined && existsSync(pidFile)) {
    try {
      process.kill(Number(readFileSync(pidFile, "utf8")), "SIGKILL");
    } catch {
      // already gone
    }
  }
  await mock?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  mock = undefined;
  term = undefined;
  dir = undefined;
});

describe("mm run on a terminal that closes (SIGHUP, then EIO on every write)", () => {
  it.skipIf(!hasScript).each([
    ["auto", "human-readable lines, as an operator on a terminal sees them"],
    ["false", "JSON lines"],
  ])("cancels every quote and exits 0 though its output is gone (MM_LOG_PRETTY=%s: %s)", async (pretty) => {
    mock = await createMockExchange({ scenario: SCENARIO, flow: true });
    const slugs = SCENARIO.markets.slice(0, 4).map((m) => m.slug);
    const d = mkdtempSync(join(tmpdir(), "mm-hangup-"));
    dir = d;
    const env = childEnv({
      ...daemonEnv(mock, slugs, { MM_LOG_PRETTY: pretty }),
      SHELL: "/bin/sh",
      DIR: d,
      MM_NODE: process.execPath,
    });
    term = spawn("script", ["-q", "-f", "-c", SHELL_JOB, "/dev/null"], {
      cwd: packageRoot(),
      env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let screen = "";
    term.stdout?.setEncoding("utf8").on("data", (t: string) => {
      screen += t;
    });
    const m = mock;
    await waitFor(() => openOnMock(m).length >= 16, 15_000, "quotes on the mock");
    expect(screen).toContain("engine started");
    // Requotes are in flight while the books move; the stop must still leave nothing behind.
    await new Promise((r) => setTimeout(r, 500));
    // The terminal closes: its master side dies with `script`, the line hangs up.
    term.kill("SIGKILL");
    const code = await waitFor(
      () => existsSync(join(d, "code")) && readFileSync(join(d, "code"), "utf8").trim(),
      10_000,
      "mm run to exit",
    );
    expect(code).toBe("0");
    expect(openOnMock(mock)).toEqual([]);
  });
});
