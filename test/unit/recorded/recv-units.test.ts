import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { readRecorded, recordLine } from "../../../src/recorded/format.js";

/*
 * Review s25 (walkrec): a recorded file whose recvTs are in seconds (another tool's converter,
 * `Math.floor(Date.now() / 1000)`) was replayed without a word: the real capture, stamped so,
 * gave a summary whose window ran on 1970-01-21 for 444 s instead of 5.1 days (data.gaps: none,
 * every markout and Sharpe interval a thousand times too short). In microseconds, year 57,000.
 * Such a line is a bad record, named with its file and line, as a fractional recvTs is.
 */

const dir = mkdtempSync(join(tmpdir(), "mm-recv-units-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const frame = { type: "book_delta", sid: 1, channel: "token_book", id: "1" };
const MS = 1_737_825_351_766;

async function readAll(path: string): Promise<number[]> {
  const out: number[] = [];
  for await (const r of readRecorded(path)) out.push(r.recvTs);
  return out;
}

describe("recvTs in another unit than milliseconds", () => {
  it.each([
    ["seconds", Math.floor(MS / 1000)],
    ["microseconds", MS * 1000],
  ])("in %s: a bad record naming the file and line", async (_unit, ts) => {
    const path = join(dir, `${_unit}.jsonl.gz`);
    writeFileSync(path, gzipSync(recordLine({ recvTs: MS, frame }) + recordLine({ recvTs: ts, frame })));
    await expect(readAll(path)).rejects.toMatchObject({
      code: "bad_record",
      details: { file: path, line: 2, problem: expect.stringContaining("not milliseconds since the epoch") },
    });
  });

  it("milliseconds from 1973 to year 5138 are read", async () => {
    const path = join(dir, "ms.jsonl.gz");
    const times = [1e11, MS, 1e14];
    writeFileSync(path, gzipSync(times.map((recvTs) => recordLine({ recvTs, frame })).join("")));
    expect(await readAll(path)).toEqual(times);
  });
});
