import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseReplayConfig } from "../../../src/backtest/replay/replay-config.js";
import { runBacktest } from "../../../src/backtest/replay/run-backtest.js";
import { importCommand } from "../../../src/cli/import.js";
import { packageRoot } from "../../../src/config/paths.js";
import { firstRecord, readRecorded } from "../../../src/recorded/format.js";

/*
 * An imported capture starts each token with a synthetic empty snapshot (seq 1), and the replay
 * of a directory merges its files by recvTs. Two imports holding the same token over overlapping
 * times therefore replay as two interleaved book streams: a second capture that overlaps the
 * first wipes the book where it starts (the real capture split in two overlapping halves: 144
 * bot fills instead of 2), and the same capture imported twice has every frame counted twice.
 * `mm import` refuses to write such a file into a directory (exit 2, nothing written, the file
 * already there untouched); captures that do not overlap may share a directory.
 */

const CAPTURE = join(
  packageRoot(),
  "../shared/data/polymarket-price-changes/price_change_messages_202501302221.csv",
);
const TOKEN = "19132077152294710079876824487679725658489209861892422335113898186089131197703";
const CMD = ["--format", "polymarket-price-change-csv"];
const LAYERS = [
  {
    strategy: { name: "bands", params: { bands: [{ margin: "0.01", size: "10" }] } },
    latency: { feedMs: 5, entryMs: 3, responseMs: 3 },
    markets: { tick: "0.01" },
  },
];

let root: string;
let header: string;
let rows: string[];
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "mm-import-overlap-"));
  const lines = readFileSync(CAPTURE, "utf8").split("\n");
  header = lines[0] as string;
  rows = lines.slice(1).filter((l) => l !== "");
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

function io(cwd: string) {
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
      cwd,
    },
  };
}

/** A directory holding `name`.csv with the capture's rows [from, to). */
function csv(dir: string, name: string, from: number, to: number): string {
  const path = join(dir, `${name}.csv`);
  writeFileSync(path, `${[header, ...rows.slice(from, to)].join("\n")}\n`);
  return path;
}

async function replay(data: string) {
  const { summary } = await runBacktest({ config: parseReplayConfig(LAYERS), data });
  const { data: d, ...rest } = summary;
  const { files: _files, ...counts } = d;
  return { counts, rest };
}

const timeOf = (row: string) => row.split(",")[3];

describe("mm import into a directory that already holds the capture", () => {
  it("refuses a second capture overlapping the first in time; the directory replays as the first alone", async () => {
    const dir = join(root, "overlap");
    mkdirSync(dir);
    csv(root, "early", 0, 2_500);
    csv(root, "late", 2_000, rows.length);
    const first = io(dir);
    expect(
      await importCommand.run([...CMD, "../early.csv", "early.jsonl.gz"], first.io),
      first.out.stderr,
    ).toBe(0);
    const before = readFileSync(join(dir, "early.jsonl.gz"));
    const alone = await replay(join(dir, "early.jsonl.gz"));

    const second = io(dir);
    const code = await importCommand.run([...CMD, "../late.csv", "late.jsonl.gz"], second.io);
    // What the replay of the directory gives is what the first capture gives.
    expect(await replay(dir)).toEqual(alone);
    expect(code).toBe(2);
    expect(second.out.stdout).toBe("");
    expect(second.out.stderr).toContain(`mm import: ${join(dir, "late.jsonl.gz")}: early.jsonl.gz in ${dir}`);
    expect(second.out.stderr).toContain(
      `already holds token ${TOKEN} from 2025-01-25T17:15:47.925Z to ${isoOf(rows[2_499])}`,
    );
    expect(second.out.stderr).toContain("wipe the book mid-stream");
    expect(second.out.stderr).toContain("Nothing was written.");
    expect(readdirSync(dir).sort()).toEqual(["early.jsonl.gz"]);
    expect(readFileSync(join(dir, "early.jsonl.gz")).equals(before)).toBe(true);
  }, 30_000);

  it("refuses the same capture imported again under another name, naming the file that holds it", async () => {
    const dir = join(root, "twice");
    mkdirSync(dir);
    const input = csv(root, "part", 0, 1_500);
    const first = io(dir);
    expect(await importCommand.run([...CMD, input, "a.jsonl.gz"], first.io)).toBe(0);
    const alone = await replay(join(dir, "a.jsonl.gz"));

    const again = io(dir);
    const code = await importCommand.run([...CMD, input, "b.jsonl.gz"], again.io);
    expect(await replay(dir)).toEqual(alone); // not 2 × 1,501 frames
    expect(code).toBe(2);
    expect(again.out.stderr).toMatch(
      new RegExp(
        `^mm import: ${join(dir, "b.jsonl.gz")}: ${dir} already holds this capture as a\\.jsonl\\.gz \\(same input, sha256 [0-9a-f]{12}\\): .*Nothing was written\\. \\(code already_imported\\)\\n$`,
      ),
    );
    expect(readdirSync(dir)).toEqual(["a.jsonl.gz"]);
    // --force replaces the output itself, it does not put a second copy next to it.
    expect(await importCommand.run([...CMD, "--force", input, "b.jsonl.gz"], again.io)).toBe(2);
    const replace = io(dir);
    expect(
      await importCommand.run([...CMD, "--force", input, "a.jsonl.gz"], replace.io),
      replace.out.stderr,
    ).toBe(0);
    expect(readdirSync(dir)).toEqual(["a.jsonl.gz"]);
  }, 30_000);

  it("accepts captures of the token that do not overlap, and records where each came from", async () => {
    const dir = join(root, "split");
    mkdirSync(dir);
    const cut = 2_000;
    expect(timeOf(rows[cut - 1] as string)).not.toBe(timeOf(rows[cut] as string));
    const a = csv(root, "first-half", 0, cut);
    const b = csv(root, "second-half", cut, rows.length);
    const c = io(dir);
    expect(await importCommand.run([...CMD, b, "2.jsonl.gz"], c.io), c.out.stderr).toBe(0);
    expect(await importCommand.run([...CMD, a, "1.jsonl.gz"], c.io), c.out.stderr).toBe(0);
    const head = await firstRecord(join(dir, "1.jsonl.gz"));
    expect(head?.source).toEqual({
      format: "polymarket-price-change-csv",
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      streams: [
        {
          tokenId: TOKEN,
          firstTs: Date.parse("2025-01-25T17:15:47.925Z"),
          lastTs: Date.parse(isoOf(rows[cut - 1])),
        },
      ],
    });
    // Another directory (or an output that a directory replay does not read) is not checked.
    const other = join(root, "other");
    mkdirSync(other);
    expect(await importCommand.run([...CMD, a, join(other, "1.jsonl.gz")], c.io)).toBe(0);
    expect(await importCommand.run([...CMD, a, "1.jsonl.gz.bak"], c.io)).toBe(0);
  }, 30_000);

  it("the overlapping captures joined into one CSV (cat: the header repeated) import as the whole capture (repeated rows dropped)", async () => {
    const dir = join(root, "joined");
    mkdirSync(dir);
    const joined = join(root, "joined.csv");
    const catted = [header, ...rows.slice(0, 2_500), header, ...rows.slice(2_000)];
    writeFileSync(joined, `${catted.join("\n")}\n`);
    const c = io(dir);
    expect(await importCommand.run([...CMD, joined, "joined.jsonl.gz"], c.io), c.out.stderr).toBe(0);
    expect(JSON.parse(c.out.stdout)).toMatchObject({
      rows: rows.length + 500,
      duplicates: 500,
      frames: 3_830,
    });
    expect(await importCommand.run([...CMD, CAPTURE, join(root, "whole.jsonl.gz")], c.io)).toBe(0);
    const frames = async (path: string) => {
      const out: unknown[] = [];
      for await (const { recvTs, frame } of readRecorded(path)) out.push({ recvTs, frame });
      return out;
    };
    expect(await frames(join(dir, "joined.jsonl.gz"))).toEqual(await frames(join(root, "whole.jsonl.gz")));
  }, 30_000);
});

/** A CSV row's timestamp as ISO UTC (the capture's offsets are all +0100). */
function isoOf(row: string | undefined): string {
  const ts = timeOf(row as string) as string; // "2025-01-25 18:15:47.925 +0100"
  const [date, time, offset] = ts.split(" ") as [string, string, string];
  return new Date(`${date}T${time}${offset.slice(0, 3)}:${offset.slice(3)}`).toISOString();
}
