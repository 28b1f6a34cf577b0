import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { importPolymarketPriceChanges } from "../../../../src/backtest/import/polymarket-price-changes.js";
import { packageRoot } from "../../../../src/config/paths.js";

/** The real Polymarket capture beside the repository (../shared/data), as the importer reads it. */
export const CAPTURE_CSV = join(
  packageRoot(),
  "../shared/data/polymarket-price-changes/price_change_messages_202501302221.csv",
);

/**
 * The capture imported once for a test file, in a private temp folder removed after it: call at the
 * file's top level; the returned function gives the recording's path inside tests.
 * @example const data = importedCapture("mm-backtest-pm-"); it("…", async () => runBacktest({ config, data: data() }));
 */
export function importedCapture(prefix: string): () => string {
  let dir: string | undefined;
  let data: string | undefined;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    data = join(dir, "pm.jsonl.gz");
    await importPolymarketPriceChanges({ input: CAPTURE_CSV, output: data });
  });
  afterAll(() => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    if (data === undefined) throw new Error("the capture is imported in beforeAll: read it inside a test");
    return data;
  };
}

/**
 * The real capture cut at its longest silence (2.8 days, 26 to 29 January) into two CSVs, each
 * imported into one directory: two consecutive captures of one token, as README allows. The second
 * starts from its own empty snapshot at seq 1, so its book holds none of the levels the capture
 * never cleared across the silence (imported whole, the capture is crossed from there on). Call at
 * the file's top level, like importedCapture; the returned function gives the directory.
 */
export function importedSplitCapture(prefix: string): () => string {
  let dir: string | undefined;
  let data: string | undefined;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    data = join(dir, "data");
    mkdirSync(data);
    const [header, ...rows] = readFileSync(CAPTURE_CSV, "utf8").trimEnd().split("\n");
    const cut = longestSilence(rows);
    const parts = [rows.slice(0, cut), rows.slice(cut)];
    for (const [i, part] of parts.entries()) {
      const csv = join(dir, `part${i + 1}.csv`);
      writeFileSync(csv, `${[header, ...part].join("\n")}\n`);
      await importPolymarketPriceChanges({ input: csv, output: join(data, `part${i + 1}.jsonl.gz`) });
    }
  });
  afterAll(() => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    if (data === undefined) throw new Error("the capture is imported in beforeAll: read it inside a test");
    return data;
  };
}

// Index of the row after the longest silence between consecutive rows (one row a line, in time
// order: checked by the importer's own tests, which report it reordered 0).
function longestSilence(rows: readonly string[]): number {
  const ms = rows.map((r) => {
    const m = /,(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d\.\d+) ([+-]\d\d)(\d\d),/.exec(r);
    if (m === null) throw new Error(`no timestamp in ${r.slice(0, 120)}`);
    return Date.parse(`${m[1]}T${m[2]}${m[3]}:${m[4]}`);
  });
  let best = 1;
  for (let i = 1; i < ms.length; i++)
    if ((ms[i] as number) - (ms[i - 1] as number) > (ms[best] as number) - (ms[best - 1] as number)) best = i;
  return best;
}
