import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { abortRequests } from "../../../src/app/lifecycle.js";
import { createPaperCommand } from "../../../src/cli/paper.js";
import { collectingStream } from "../../support/collecting-stream.js";
import { tempDirPerTest } from "../../unit/config/support.js";

/**
 * An operator who sourced the live env file (MM_JOURNAL_PATH=<the live journal>) and then ran
 * `mm paper` used to have paper fills written into the live journal, where `mm report` adds them to
 * live PnL. Paper now never takes its journal from the environment: a fresh temp file, or the
 * paper-specific `--journal FILE`; the variable gets one warning line on stderr.
 */
const tmp = tempDirPerTest();

/** Runs `mm paper` until its daemon is up (journal open), then stops it; stderr and the log's text. */
async function paper(
  argv: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; stderr: string; log: string }> {
  let stderr = "";
  const sink = collectingStream();
  const ac = new AbortController();
  const up = setInterval(() => {
    if (sink.text().includes("paper: where to look")) ac.abort();
  }, 20);
  const cmd = createPaperCommand({ requests: abortRequests(ac.signal), logDestination: sink });
  const code = await cmd.run(["--port", "0", "--no-flow", ...argv], {
    stdout: () => undefined,
    stderr: (t) => {
      stderr += t;
    },
    env: { MM_METRICS_PORT: "0", MM_LOG_PRETTY: "false", ...env },
    cwd: tmp.dir,
  });
  clearInterval(up);
  return { code, stderr, log: sink.text() };
}

/** The journal path of the run's last log line ("paper: this run's journal: mm report --journal <path>"). */
function journalOf(log: string): string {
  const m = /mm report --journal (\S+?)"/.exec(log);
  if (m?.[1] === undefined) throw new Error(`no journal line in the log:\n${log}`);
  return m[1];
}

describe("mm paper with MM_JOURNAL_PATH in the environment (a sourced live env file)", () => {
  it("never writes the live journal: a fresh temp file, and one stderr line saying so", async () => {
    const live = join(tmp.dir, "live.sqlite");
    const run = await paper([], { MM_JOURNAL_PATH: live });
    const used = journalOf(run.log);
    try {
      expect(run.code).toBe(0);
      expect(existsSync(live)).toBe(false);
      expect(used).not.toBe(live);
      const warnings = run.stderr.split("\n").filter((l) => l.includes("MM_JOURNAL_PATH"));
      expect(warnings).toEqual([
        `config warning: MM_JOURNAL_PATH: ignored by mm paper (${live} may be the live journal); ` +
          "paper journals to a fresh temp file, or to --journal FILE",
      ]);
    } finally {
      rmSync(join(used, ".."), { recursive: true, force: true });
    }
  }, 30_000);

  it("--journal FILE keeps paper history in the file named, even with MM_JOURNAL_PATH set", async () => {
    const live = join(tmp.dir, "live.sqlite");
    const kept = join(tmp.dir, "paper.sqlite");
    const run = await paper(["--journal", "paper.sqlite"], { MM_JOURNAL_PATH: live });
    expect(run.code).toBe(0);
    expect(journalOf(run.log)).toBe(kept);
    expect(existsSync(kept)).toBe(true);
    expect(existsSync(live)).toBe(false);
  }, 30_000);
});
