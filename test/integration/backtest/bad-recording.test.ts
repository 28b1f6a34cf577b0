import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBacktestCli } from "./support/cli.js";
import { writeRecording } from "./support/recording.js";

/*
 * A corrupt recording is bad input, not a bug: the recorded-format reader's RecordedFormatError
 * (`bad_record`) makes `mm backtest` exit 2 naming the file and line, as every other input error.
 */

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "mm-backtest-badrec-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("mm backtest on a corrupt recording", () => {
  it("exits 2 naming the file and the bad line", async () => {
    const data = join(dir, "rec.jsonl.gz");
    await writeRecording(data, 50);
    appendFileSync(data, gzipSync("not json\n")); // a second gzip member: line 51
    const r = await runBacktestCli("--config", "config/backtest/bands-replay.json", "--data", data);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toBe(`mm backtest: ${data}:51: not JSON (code bad_record)\n`);
  });
});
