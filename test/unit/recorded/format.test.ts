import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RecordedFormatError } from "../../../src/recorded/errors.js";
import {
  type RecordedFrame,
  RecordedWriter,
  readRecorded,
  readRecordedBatches,
  recordLine,
} from "../../../src/recorded/format.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "mm-recorded-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const rec = (i: number): RecordedFrame => ({
  recvTs: 1_700_000_000_000 + i,
  frame: {
    type: "book_delta",
    sid: "s1",
    channel: "token_book",
    id: "42",
    data: {
      tokenId: "42",
      seq: i + 1,
      prevSeq: i,
      changes: [{ side: "buy", price: "0.5", size: String(i) }],
    },
  },
});

async function readAll(
  path: string,
  onBadLine?: (line: number, problem: string) => void,
): Promise<RecordedFrame[]> {
  const out: RecordedFrame[] = [];
  for await (const r of readRecorded(path, onBadLine === undefined ? {} : { onBadLine })) out.push(r);
  return out;
}

async function all<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe("recorded format: gzip JSON Lines of {recvTs, frame}", () => {
  it("round-trips many records through the streaming writer and reader, in order", async () => {
    const path = join(dir, "a.jsonl.gz");
    const w = RecordedWriter.create(path);
    const n = 60_000;
    for (let i = 0; i < n; i++) await w.write(rec(i));
    await w.close();
    expect(w.count).toBe(n);
    expect(readFileSync(path).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b])); // gzip magic
    let i = 0;
    for await (const r of readRecorded(path)) {
      expect(r).toEqual(rec(i));
      i++;
    }
    expect(i).toBe(n);
  });

  it("reads concatenated gzip members (appending a file is allowed)", async () => {
    const path = join(dir, "b.jsonl.gz");
    writeFileSync(path, gzipSync(recordLine(rec(0)) + recordLine(rec(1))));
    appendFileSync(path, gzipSync(recordLine(rec(2))));
    expect((await readAll(path)).map((r) => r.recvTs)).toEqual([0, 1, 2].map((i) => rec(i).recvTs));
  });

  it("refuses a bad line with its line number, or skips it when asked", async () => {
    const path = join(dir, "c.jsonl.gz");
    writeFileSync(
      path,
      gzipSync(`${recordLine(rec(0))}{"recvTs":"soon","frame":{}}\nnot json\n${recordLine(rec(3))}`),
    );
    const err = await readAll(path).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RecordedFormatError);
    expect(err).toMatchObject({
      code: "bad_record",
      details: { file: path, line: 2, problem: "recvTs is not a number" },
    });
    const bad: string[] = [];
    const recs = await readAll(path, (line, problem) => bad.push(`${line}: ${problem}`));
    expect(recs.map((r) => r.recvTs)).toEqual([rec(0).recvTs, rec(3).recvTs]);
    expect(bad).toEqual(["2: recvTs is not a number", "3: not JSON"]);
  });

  it("refuses a fractional recvTs: the replay's clock and report count whole milliseconds", async () => {
    const path = join(dir, "c2.jsonl.gz");
    writeFileSync(path, gzipSync(`${recordLine(rec(0))}{"recvTs":1750000000000.137,"frame":{}}\n`));
    await expect(readAll(path)).rejects.toMatchObject({
      code: "bad_record",
      details: { file: path, line: 2, problem: "recvTs is not a whole number of milliseconds" },
    });
  });

  it("fails on a truncated file instead of returning part of it silently", async () => {
    const path = join(dir, "d.jsonl.gz");
    const full = gzipSync(Array.from({ length: 2_000 }, (_, i) => recordLine(rec(i))).join(""));
    writeFileSync(path, full.subarray(0, full.length - 40));
    await expect(readAll(path)).rejects.toThrow();
  });

  it("exclusive create refuses an existing file; a missing input file rejects", async () => {
    const path = join(dir, "e.jsonl.gz");
    writeFileSync(path, "");
    const w = RecordedWriter.create(path, { exclusive: true });
    await expect(w.close()).rejects.toMatchObject({ code: "EEXIST" });
    await expect(readAll(join(dir, "missing.jsonl.gz"))).rejects.toMatchObject({ code: "ENOENT" });
  });
});

/** A receive time in ms since the epoch (2025-06-15). */
const T = 1_750_000_000_000;

describe("readRecordedBatches", () => {
  it("reads the records of readRecorded, in batches, across decompressed chunks", async () => {
    const path = join(dir, "many.jsonl.gz");
    const w = RecordedWriter.create(path);
    // ~1.2 MB of JSON: several 256 KiB chunks, records cut across chunk boundaries.
    for (let i = 0; i < 6_000; i++)
      await w.write({ recvTs: T + i, frame: { type: "x", data: { pad: "p".repeat(i % 300), i } } });
    await w.close();
    const one = await all(readRecorded(path));
    const batched = await all(readRecordedBatches(path));
    expect(batched.length).toBeGreaterThan(2);
    expect(batched.flat()).toEqual(one);
    expect(one).toHaveLength(6_000);
  });

  it("delivers the records before a bad line, then throws RecordedFormatError with its line number", async () => {
    const path = join(dir, "bad.jsonl.gz");
    const good = (i: number) => JSON.stringify({ recvTs: T + i, frame: { type: "x" } });
    writeFileSync(path, gzipSync(`${good(1)}\n${good(2)}\nnot json\n${good(4)}\n`));
    const seen: number[] = [];
    const err = await (async () => {
      for await (const b of readRecordedBatches(path)) for (const r of b) seen.push(r.recvTs);
    })().catch((e: unknown) => e);
    expect(seen).toEqual([T + 1, T + 2]);
    expect(err).toBeInstanceOf(RecordedFormatError);
    expect(err).toMatchObject({ code: "bad_record" });
    expect((err as RecordedFormatError).details).toMatchObject({ line: 3, problem: "not JSON" });
  });
});
