import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BacktestError } from "../../../src/backtest/errors.js";
import { requireOutputFolders } from "../../../src/cli/output-folder.js";
import { asPaperRun, asPaperSweep, bandsReplay, runBacktestCli } from "./support/cli.js";
import { writeRecording } from "./support/recording.js";

/*
 * An output that would overwrite another output or one of the run's own inputs, that reads as
 * stdout, or that is named like a recording, is refused before the run (exit 2) naming the
 * option(s); a symlink is judged by where it leads. Companion of output-same-file.test.ts (the review's cases).
 */

let dir: string;
let recordings: string;
const ran = /in \d+\.\d\d s/;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "mm-out-refused-"));
  recordings = join(dir, "recordings");
  mkdirSync(recordings);
  await writeRecording(join(recordings, "a.jsonl.gz"), 50);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const synthetic = asPaperRun;

const refusal = async (cwd: string, outputs: [string, string][], inputs: [string, string][] = []) => {
  try {
    await requireOutputFolders(cwd, outputs, inputs);
  } catch (err) {
    if (err instanceof BacktestError) return { code: err.code, message: err.message };
    throw err;
  }
  return undefined;
};

describe("mm backtest: an output naming another output or an input", () => {
  it("--out and --html the same file: both options named", async () => {
    const same = join(dir, "both.out");
    const r = await synthetic("--out", same, "--html", same);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--html ${same} is the same file as --out ${same}`);
  }, 60_000);

  it("--out a recording inside the --data directory: refused, the recording left whole", async () => {
    const rec = join(recordings, "a.jsonl.gz");
    const before = readFileSync(rec);
    const r = await bandsReplay(recordings, "--out", rec);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--out ${rec} is ${rec} of the --data directory`);
    expect(r.stderr).not.toMatch(ran);
    expect(readFileSync(rec).equals(before)).toBe(true);
  }, 60_000);

  it("a new recording-named --out or --html inside the --data directory: refused before the run, nothing written", async () => {
    // The next replay of the whole directory would read the summary (or the page) as a recording.
    const out = join(recordings, "summary.jsonl.gz");
    const r = await bandsReplay(recordings, "--out", out);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `mm backtest: --out ${out} is named like a recording (*.jsonl.gz): a replay of its folder would read it as data; ` +
        "a backtest writes JSON or HTML, name it e.g. .json or .html (code output_recording_name)\n",
    );
    expect(existsSync(out)).toBe(false);
    // --html too, given with a path of its own (./recordings/… from the folder above), and a link
    // placed in the directory whose target lies elsewhere: the replay reads the link's name.
    const link = join(recordings, "link.jsonl.gz");
    symlinkSync(join(dir, "elsewhere.html"), link);
    const refusedHtml = await refusal(
      dir,
      [
        ["--out", "fine.json"],
        ["--html", link],
      ],
      [["--data", "./recordings"]],
    );
    expect(refusedHtml).toMatchObject({
      code: "output_recording_name",
      message: expect.stringContaining("--html"),
    });
    rmSync(link);
    // Another name in the directory is fine: a replay reads only recordings.
    expect(
      await refusal(dir, [["--out", join(recordings, "s.json")]], [["--data", recordings]]),
    ).toBeUndefined();
  }, 60_000);

  it("a recording-named output anywhere, e.g. beside a single --data file: refused, the recording there left whole", async () => {
    // Review r20: rotated files are replayed one by one (--data dir/a.jsonl.gz), and an --out
    // beside it was allowed: a later replay of the whole folder read the summary as data, and an
    // --out naming another recording there replaced it for good.
    const other = join(recordings, "b.jsonl.gz");
    await writeRecording(other, 20);
    const before = readFileSync(other);
    const r = await bandsReplay(join(recordings, "a.jsonl.gz"), "--out", other);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--out ${other} is named like a recording (*.jsonl.gz)`);
    expect(r.stderr).not.toMatch(ran);
    expect(readFileSync(other).equals(before)).toBe(true);
    rmSync(other);
    const elsewhere = { code: "output_recording_name", message: expect.stringContaining("--out") };
    expect(await refusal(dir, [["--out", "s.jsonl.gz"]], [["--data", recordings]])).toMatchObject(elsewhere);
    expect(await refusal(dir, [["--out", "s.jsonl.gz"]])).toMatchObject(elsewhere);
    // A link named innocently is judged by the file it writes.
    const link = join(dir, "out-link.json");
    symlinkSync(join(dir, "target.jsonl.gz"), link);
    expect(await refusal(dir, [["--html", link]])).toEqual({
      code: "output_recording_name",
      message: expect.stringContaining(`--html ${link} (a symlink to ${join(dir, "target.jsonl.gz")})`),
    });
    // A sweep's --out too, before any point runs.
    const sweep = await asPaperSweep("--out", join(dir, "sweep.jsonl.gz"));
    expect(sweep.code).toBe(2);
    expect(sweep.stderr).toContain("--out");
    expect(sweep.stderr).toContain("named like a recording");
    expect(sweep.stderr).not.toContain("sweep of");
  }, 60_000);

  it("--out or --html a --scenario or --config file (or a symlink to it): refused, the file left whole", async () => {
    const scenario = join(dir, "scenario.json");
    writeFileSync(scenario, readFileSync("config/backtest/as-paper.json"));
    const link = join(dir, "scenario-link.html");
    symlinkSync(scenario, link);
    const r = await runBacktestCli("--scenario", scenario, "--paths", "1", "--html", link);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--html ${link} is the --scenario file`);
    expect(readFileSync(scenario, "utf8")).toBe(readFileSync("config/backtest/as-paper.json", "utf8"));
    expect(await refusal(dir, [["--out", "c.json"]], [["--config", "c.json"]])).toBeUndefined();
    writeFileSync(join(dir, "c.json"), "{}");
    expect(await refusal(dir, [["--out", "c.json"]], [["--config", join(dir, "c.json")]])).toMatchObject({
      code: "output_is_input",
      message: expect.stringContaining("--out"),
    });
  }, 60_000);

  it("a sweep's --out the --sweep file: refused before any point runs", async () => {
    const sweep = join(dir, "sweep.json");
    writeFileSync(sweep, readFileSync("config/backtest/as-paper-sweep.json"));
    const r = await synthetic("--sweep", sweep, "--workers", "1", "--progress", "none", "--out", sweep);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--out ${sweep} is the --sweep file`);
    expect(r.stdout).not.toMatch(/^ranked by/m);
  }, 60_000);
});

describe("requireOutputFolders and symlinks, and stdout", () => {
  it("a dangling symlink whose target's folder exists is accepted (the write creates the target)", async () => {
    const link = join(dir, "ok-link.json");
    symlinkSync(join(recordings, "new.json"), link);
    expect(await refusal(dir, [["--out", link]])).toBeUndefined();
  });

  it("a dangling symlink into a missing folder names the link, its target and the folder", async () => {
    const link = join(dir, "bad-link.json");
    const target = join(dir, "gone", "x.json");
    symlinkSync(target, link);
    expect(await refusal(dir, [["--html", link]])).toEqual({
      code: "output_dir_missing",
      message: `--html ${link} (a symlink to ${target}): its folder ${join(dir, "gone")} does not exist (create it first: mkdir -p ${join(dir, "gone")})`,
    });
  });

  it("a symlink loop is refused", async () => {
    symlinkSync(join(dir, "loop-b"), join(dir, "loop-a"));
    symlinkSync(join(dir, "loop-a"), join(dir, "loop-b"));
    expect(await refusal(dir, [["--out", "loop-a"]])).toMatchObject({ code: "output_symlink_loop" });
  });

  it("`-` is refused (no mm option writes to stdout by `-`), `./-` names a file", async () => {
    const r = await synthetic("--out", "-");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--out -: stdout is not supported");
    expect(r.stderr).not.toMatch(ran);
    expect(await refusal(dir, [["--html", "-"]])).toMatchObject({ code: "output_stdout_unsupported" });
    expect(await refusal(dir, [["--out", "./-"]])).toBeUndefined();
    expect(existsSync(join(dir, "-"))).toBe(false);
  }, 60_000);
});
