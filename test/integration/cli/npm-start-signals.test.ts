import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cleanEnv, ROOT, runNode } from "../../support/child-run.js";

/*
 * `npm start` (and `npm run mm`) load mm's TypeScript through tsx, seconds on a loaded machine, and
 * mm held its signals only once main.ts had loaded: a Ctrl-C meanwhile killed it, exit 130 and no
 * `stopped` line, while the README says the signals are held "from the process's first moment"
 * (review 18, question 1). The npm scripts now preload bin/hold-signals.mjs, plain JavaScript, before
 * tsx; early-signals.ts adopts what it held.
 */

const scripts = (
  JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }
).scripts;

/** An npm script's node arguments, with test/support/slow-import.mjs loaded just before tsx. */
function withSlowLoad(script: string): string[] {
  const words = script.split(" ");
  expect(words[0]).toBe("node");
  const args = words.slice(1);
  const tsx = args.findIndex((w, i) => w === "tsx" && args[i - 1] === "--import");
  expect(tsx).toBeGreaterThan(0);
  args.splice(tsx - 1, 0, "--import", "./test/support/slow-import.mjs");
  return args;
}

describe("npm start: a Ctrl-C while tsx still loads mm", () => {
  it("stops mm paper as one during the start: exit 0 and the stopped line, not a kill (130)", async () => {
    const args = [...withSlowLoad(scripts.start ?? ""), "--port", "0", "--no-flow"];
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: cleanEnv({ MM_METRICS_PORT: "0", MM_LOG_LEVEL: "warn" }),
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d: string) => {
      stderr += d;
      if (d.includes("slow-import: loading")) child.kill("SIGINT");
    });
    const ended = await new Promise<number | string | null>((done) =>
      child.on("close", (code, signal) => done(code ?? signal)),
    );
    // Was: "SIGINT" (killed by it: the shell's 130), nothing said.
    expect(ended).toBe(0);
    expect(stderr).toContain("mm paper: stopped (SIGINT); exit 0");
  }, 60_000);
});

describe("bin/hold-signals.mjs holds what early-signals.ts holds, command by command", () => {
  it.each(["run", "paper", "record", "backtest", "config"])(
    "%s",
    async (command) => {
      // What the preload holds, read in a child whose argv names the command.
      const probe = join(ROOT, "test/support/held-signals-probe.mjs");
      const pre = await runNode(["--import", "./bin/hold-signals.mjs", probe, command], cleanEnv());
      expect(pre.code).toBe(0);
      // What early-signals.ts holds for it, with the preload's handlers handed over.
      const ts = await runNode(
        ["--import", "./bin/hold-signals.mjs", "--import", "tsx", probe, command, "--adopt"],
        cleanEnv(),
      );
      expect(ts.code).toBe(0);
      expect(ts.stdout).toBe(pre.stdout);
    },
    30_000,
  );
});
