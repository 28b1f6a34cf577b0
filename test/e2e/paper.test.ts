import { readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { packageRoot } from "../../src/config/paths.js";
import { API_KEY, PRIVATE_KEY } from "../integration/daemon/support.js";
import { type MmChild, reap, spawnMm } from "./support.js";

let mm: MmChild | undefined;
const JOURNAL_LINE = "paper: this run's journal: mm report --journal ";
afterEach(async () => {
  await reap(mm);
  // Paper mode keeps its journal after the run (for mm report): the test's is removed.
  const line = mm?.records.map((r) => String(r.msg)).find((m) => m.startsWith(JOURNAL_LINE));
  if (line !== undefined) rmSync(dirname(line.slice(JOURNAL_LINE.length)), { recursive: true, force: true });
  mm = undefined;
});

/**
 * `npm start`'s command line as npm runs it (`node --import tsx …`: no tsx CLI in between, whose
 * signal relay SIGKILLs a child that does not acknowledge a signal within 30 ms on a busy machine).
 */
function npmStart(): string[] {
  const manifest = JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  };
  const [bin = "", ...args] = (manifest.scripts.start ?? "").split(" ");
  expect(bin).toBe("node");
  return [process.execPath, ...args];
}

describe("paper mode (npm start)", () => {
  it("quotes the scenario's markets, gets fills, and on SIGTERM leaves the mock without an order of ours", async () => {
    const [bin = "", ...args] = npmStart();
    mm = spawnMm([...args, "--port", "0"], { MM_LOG_PRETTY: "false" }, [bin]);
    const where = await mm.waitFor(
      (r) => String(r.msg).startsWith("paper: mock exchange at http://127.0.0.1:"),
      15_000,
      "the mock's address",
    );
    expect(where.http).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const quoting = await mm.waitFor(
      (r) => String(r.msg).startsWith("quoting "),
      10_000,
      "the markets quoted",
    );
    expect(quoting.markets).toBe(9);
    expect(quoting.strategies).toEqual(["bands"]);
    await mm.waitFor((r) => String(r.msg).startsWith("fill: "), 15_000, "a fill");
    mm.child.kill("SIGTERM");
    expect(await mm.exited).toBe(0);
    expect(
      mm.records.find((r) => r.msg === "paper: the mock exchange holds 0 open order(s) of the paper wallet"),
    ).toBeDefined();
    expect(mm.stderr()).toContain("mm paper: stopped (SIGTERM); exit 0");
    // The paper credentials live in memory only: never in a log line.
    const all = JSON.stringify(mm.records) + mm.stderr();
    expect(all).not.toContain(API_KEY);
    expect(all).not.toContain(PRIVATE_KEY.slice(2));
  });
});
