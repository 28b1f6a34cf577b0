import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { UsageError } from "../../../src/cli/command.js";
import { importCommand } from "../../../src/cli/import.js";
import { type RecordedFrame, readRecorded } from "../../../src/recorded/format.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "mm-import-cmd-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function io() {
  const out = { stdout: "", stderr: "" };
  return {
    out,
    io: {
      stdout: (t: string) => {
        out.stdout += t;
      },
      stderr: (t: string) => {
        out.stderr += t;
      },
      env: {},
      cwd: dir,
    },
  };
}

const COND = `0x${"AB".repeat(32)}`;
const ch = (side: string, price: string, size: string) =>
  `"[{""side"": ""${side}"", ""size"": ""${size}"", ""price"": ""${price}""}]"`;

/** Two tokens, rows out of time order, a timestamp tie broken by id, CRLF line ends, mixed quoting. */
const CSV = [
  '"id","asset_id","market","timestamp","hash","changes"',
  `30,"111",${COND},2025-01-25 18:00:02.000 +0100,h3,${ch("SELL", "0.6", "5")}`,
  `10,"111","${COND}",2025-01-25 18:00:00.000 +0100,"h1",${ch("BUY", "0.4", "1.5")}`,
  `19,222,${COND},2025-01-25 17:00:01.000 +0000,h2,${ch("BUY", "0.1", "7")}`,
  `20,"111",${COND},2025-01-25 18:00:01.000 +0100,h2,${ch("BUY", "0.40", "0")}`,
  "",
].join("\r\n");

const CMD = ["--format", "polymarket-price-change-csv"];

async function frames(path: string): Promise<RecordedFrame[]> {
  const out: RecordedFrame[] = [];
  for await (const r of readRecorded(path)) out.push(r);
  return out;
}

describe("mm import (run() with a CliIo)", () => {
  it("sorts rows by (timestamp, id), numbers each token's frames from its own empty snapshot", async () => {
    writeFileSync(join(dir, "in.csv"), CSV);
    const { io: cli, out } = io();
    expect(await importCommand.run([...CMD, "--outcome-index", "1", "in.csv", "out.jsonl.gz"], cli)).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({ rows: 4, tokens: 2, frames: 6, reordered: 1 });
    const recs = await frames(join(dir, "out.jsonl.gz"));
    const t = Date.parse("2025-01-25T17:00:00.000Z");
    expect(recs.map((r) => [r.recvTs - t, r.frame.type, r.frame.id])).toEqual([
      [0, "book_snapshot", "111"],
      [0, "book_delta", "111"],
      [1000, "book_snapshot", "222"], // id 19 ties with id 20 at 17:00:01 UTC and sorts first
      [1000, "book_delta", "222"],
      [1000, "book_delta", "111"],
      [2000, "book_delta", "111"],
    ]);
    const data = recs.map((r) => r.frame.data as Record<string, unknown>);
    expect(data.map((d) => [d.seq, d.prevSeq])).toEqual([
      [1, undefined],
      [2, 1],
      [1, undefined],
      [2, 1],
      [3, 2],
      [4, 3],
    ]);
    expect(data[1]).toMatchObject({ conditionId: COND.toLowerCase(), outcomeIndex: 1 });
    expect(data.map((d) => d.changes)).toEqual([
      undefined,
      [{ side: "buy", price: "0.4", size: "1.5" }],
      undefined,
      [{ side: "buy", price: "0.1", size: "7" }],
      [{ side: "buy", price: "0.4", size: "0" }],
      [{ side: "sell", price: "0.6", size: "5" }],
    ]);
  });

  it("refuses a malformed row with its line, and leaves no output behind", async () => {
    const bad = CSV.replace(ch("SELL", "0.6", "5"), ch("SELL", "0.6", "-5"));
    writeFileSync(join(dir, "in.csv"), bad);
    const { io: cli, out } = io();
    expect(await importCommand.run([...CMD, "in.csv", "out.jsonl.gz"], cli)).toBe(2);
    expect(out.stderr).toMatch(/in\.csv:2: changes\[0\]: bad_size/);
    expect(readdirSync(dir)).toEqual(["in.csv"]);
  });

  it("refuses to overwrite without --force", async () => {
    writeFileSync(join(dir, "in.csv"), CSV);
    writeFileSync(join(dir, "out.jsonl.gz"), "keep me");
    const { io: cli, out } = io();
    expect(await importCommand.run([...CMD, "in.csv", "out.jsonl.gz"], cli)).toBe(2);
    expect(out.stderr).toMatch(/exists \(use --force/);
    expect(await importCommand.run([...CMD, "--force", "in.csv", "out.jsonl.gz"], cli)).toBe(0);
    expect(await frames(join(dir, "out.jsonl.gz"))).toHaveLength(6);
  });

  it("reports a missing input and a bad timestamp as input errors (exit 2)", async () => {
    const { io: cli, out } = io();
    expect(await importCommand.run([...CMD, "nope.csv", "out.jsonl.gz"], cli)).toBe(2);
    expect(out.stderr).toMatch(/ENOENT/);
    writeFileSync(join(dir, "in.csv"), CSV.replace("2025-01-25 18:00:02.000 +0100", "2025-01-25 18:00:02"));
    expect(await importCommand.run([...CMD, "in.csv", "out.jsonl.gz"], cli)).toBe(2);
    expect(out.stderr).toMatch(/in\.csv:2: timestamp/);
    expect(existsSync(join(dir, "out.jsonl.gz"))).toBe(false);
  });

  it("names OUT's missing folder and what to do, before reading the input (exit 2)", async () => {
    // It used to say "ENOENT … out.jsonl.gz.partial": a file the user never named.
    writeFileSync(join(dir, "in.csv"), CSV);
    const { io: cli, out } = io();
    expect(await importCommand.run([...CMD, "in.csv", "no/such/dir/out.jsonl.gz"], cli)).toBe(2);
    const folder = join(dir, "no/such/dir");
    expect(out.stderr).toBe(
      `mm import: cannot write ${join(folder, "out.jsonl.gz")}: its folder ${folder} does not exist (create it first: mkdir -p ${folder}) (code output_dir_missing)\n`,
    );
    expect(existsSync(join(dir, "no"))).toBe(false);
  });

  it("a path through a regular file is bad usage (exit 2) naming the path, not an unexpected error", async () => {
    // ENOTDIR escaped as "unexpected error" (exit 1), naming OUT.partial from the clean-up.
    writeFileSync(join(dir, "in.csv"), CSV);
    writeFileSync(join(dir, "afile"), "not a folder");
    const { io: cli, out } = io();
    expect(await importCommand.run([...CMD, "in.csv", "afile/out.jsonl.gz"], cli)).toBe(2);
    expect(out.stderr).toBe(
      `mm import: cannot write ${join(dir, "afile/out.jsonl.gz")}: ${join(dir, "afile")} is not a folder (code output_dir_not_folder)\n`,
    );
    expect(readdirSync(dir).sort()).toEqual(["afile", "in.csv"]);
    expect(await importCommand.run([...CMD, "afile/in.csv", "out.jsonl.gz"], cli)).toBe(2);
    expect(out.stderr).toContain(join(dir, "afile", "in.csv"));
  });

  it("refuses OUT that is IN, even with --force: the capture is never overwritten", async () => {
    writeFileSync(join(dir, "in.csv"), CSV);
    const { io: cli, out } = io();
    expect(await importCommand.run([...CMD, "--force", "in.csv", "./in.csv"], cli)).toBe(2);
    expect(out.stderr).toBe(
      `mm import: ${join(dir, "in.csv")} is the input: write the import to another file (code output_is_input)\n`,
    );
    expect(readdirSync(dir)).toEqual(["in.csv"]);
    expect(readFileSync(join(dir, "in.csv"), "utf8")).toBe(CSV);
  });

  it("refuses OUT - (stdout: the recorded format is gzip, and stdout carries the summary line) and IN - (stdin), exit 2 naming the argument", async () => {
    writeFileSync(join(dir, "in.csv"), CSV);
    const { io: cli, out } = io();
    expect(await importCommand.run([...CMD, "in.csv", "-"], cli)).toBe(2);
    expect(out.stderr).toBe(
      'mm import: OUT -: stdout is not supported, name a file (./- for a file called "-") (code output_stdout_unsupported)\n',
    );
    expect(await importCommand.run([...CMD, "-", "out.jsonl.gz"], cli)).toBe(2);
    expect(out.stderr).toContain(
      'mm import: IN -: stdin is not supported, name a file (./- for a file called "-") (code input_stdin_unsupported)\n',
    );
    expect(out.stdout).toBe("");
    expect(readdirSync(dir)).toEqual(["in.csv"]);
    // ./- still names a file called "-", as for mm backtest --out.
    expect(await importCommand.run([...CMD, "in.csv", "./-"], cli)).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(["-", "in.csv"]);
  });

  it("usage errors and help", async () => {
    const { io: cli, out } = io();
    await expect(importCommand.run(["in.csv", "out"], cli)).rejects.toBeInstanceOf(UsageError);
    await expect(importCommand.run(["--format", "parquet", "in.csv", "out"], cli)).rejects.toThrow(
      /unknown format/,
    );
    await expect(importCommand.run([...CMD, "in.csv"], cli)).rejects.toThrow(/IN OUT/);
    await expect(importCommand.run([...CMD, "--outcome-index", "x", "a", "b"], cli)).rejects.toBeInstanceOf(
      UsageError,
    );
    expect(await importCommand.run(["--help"], cli)).toBe(0);
    expect(out.stdout).toMatch(/^Usage: mm import --format FORMAT/);
  });
});
