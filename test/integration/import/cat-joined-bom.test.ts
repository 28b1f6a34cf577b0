import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { importPolymarketPriceChanges } from "../../../src/backtest/import/polymarket-price-changes.js";
import { readRecorded } from "../../../src/recorded/format.js";

/*
 * README: CSVs may be joined with `cat` (a repeated header line is skipped). A CSV saved by many
 * tools (Excel's "CSV UTF-8", PowerShell) starts with a UTF-8 BOM, so each joined part brings one
 * before its header: only the file's first used to be stripped, and the second header, not equal to
 * the first, was read as data (`bad_row`). Found by review18.
 */

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "mm-import-bom-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const COND = `0x${"AB".repeat(32)}`;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const ch = (price: string) => `"[{""side"": ""BUY"", ""size"": ""5"", ""price"": ""${price}""}]"`;
const part = (quotedHeader: boolean, rows: string[]) =>
  Buffer.concat([
    BOM,
    Buffer.from(
      `${[
        quotedHeader
          ? '"id","asset_id","market","timestamp","hash","changes"'
          : "id,asset_id,market,timestamp,hash,changes",
        ...rows,
      ].join("\n")}\n`,
    ),
  ]);

describe("CSVs joined with cat, each starting with a BOM", () => {
  it("skip every part's header, quoted or not, and import every row", async () => {
    const input = join(dir, "joined.csv");
    const output = join(dir, "out.jsonl.gz");
    writeFileSync(
      input,
      Buffer.concat([
        part(false, [`1,111,${COND},2025-01-25 18:00:00.000 +0100,h1,${ch("0.4")}`]),
        part(false, [`2,111,${COND},2025-01-25 18:00:01.000 +0100,h2,${ch("0.41")}`]),
        part(true, [`3,111,${COND},2025-01-25 18:00:02.000 +0100,h3,${ch("0.42")}`]),
      ]),
    );
    const summary = await importPolymarketPriceChanges({ input, output });
    expect(summary).toMatchObject({ rows: 3, tokens: 1, frames: 4, duplicates: 0 });
    const prices: unknown[] = [];
    for await (const r of readRecorded(output)) {
      const changes = (r.frame.data as { changes?: { price: string }[] }).changes;
      if (changes !== undefined) prices.push(changes[0]?.price);
    }
    expect(prices).toEqual(["0.4", "0.41", "0.42"]);
  });
});
