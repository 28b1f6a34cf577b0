import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { ImportError } from "../../../src/backtest/import/errors.js";
import {
  type RecordedFrame,
  RecordedWriter,
  readRecorded,
  readRecordedBatches,
} from "../../../src/backtest/import/recorded-format.js";
import { mergeBatchesByRecvTs, mergeByRecvTs } from "../../../src/backtest/replay/merge.js";

/*
 * The replay reads batches (readRecordedBatches) and merges them (mergeBatchesByRecvTs): one await
 * per batch instead of per record. Both must give exactly the records, in exactly the order, of
 * the record-at-a-time versions.
 */

const dir = mkdtempSync(join(tmpdir(), "mm-batches-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const rec = (stream: number, i: number, recvTs: number): RecordedFrame => ({
  recvTs,
  frame: { type: "book_delta", id: `${stream}:${i}` },
});

async function* records(list: readonly RecordedFrame[]): AsyncGenerator<RecordedFrame> {
  for (const r of list) yield r;
}

async function* batches(
  list: readonly RecordedFrame[],
  cuts: readonly number[],
): AsyncGenerator<RecordedFrame[]> {
  let from = 0;
  for (const c of cuts) {
    const to = Math.min(list.length, from + c);
    if (to > from) yield list.slice(from, to);
    from = to;
  }
  if (from < list.length) yield list.slice(from);
}

async function all<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe("mergeBatchesByRecvTs", () => {
  it("yields the records of mergeByRecvTs in the same order (ties, streams going back in time)", async () => {
    const stream = fc.record({
      times: fc.array(fc.integer({ min: 0, max: 30 }), { maxLength: 40 }),
      cuts: fc.array(fc.integer({ min: 1, max: 7 }), { maxLength: 12 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(stream, { minLength: 1, maxLength: 4 }), async (streams) => {
        const lists = streams.map((s, k) => s.times.map((t, i) => rec(k, i, t)));
        const expected = await all(mergeByRecvTs(lists.map((l) => records(l))));
        const got = (
          await all(mergeBatchesByRecvTs(lists.map((l, k) => batches(l, streams[k]?.cuts ?? []))))
        ).flat();
        expect(got.map((r) => r.frame.id)).toEqual(expected.map((r) => r.frame.id));
      }),
      { numRuns: 300 },
    );
  });
});

describe("readRecordedBatches", () => {
  it("reads the records of readRecorded, in batches, across decompressed chunks", async () => {
    const path = join(dir, "many.jsonl.gz");
    const w = RecordedWriter.create(path);
    // ~1.2 MB of JSON: several 256 KiB chunks, records cut across chunk boundaries.
    for (let i = 0; i < 6_000; i++)
      await w.write({ recvTs: i, frame: { type: "x", data: { pad: "p".repeat(i % 300), i } } });
    await w.close();
    const one = await all(readRecorded(path));
    const batched = await all(readRecordedBatches(path));
    expect(batched.length).toBeGreaterThan(2);
    expect(batched.flat()).toEqual(one);
    expect(one).toHaveLength(6_000);
  });

  it("delivers the records before a bad line, then throws with its line number", async () => {
    const path = join(dir, "bad.jsonl.gz");
    const good = (i: number) => JSON.stringify({ recvTs: i, frame: { type: "x" } });
    writeFileSync(path, gzipSync(`${good(1)}\n${good(2)}\nnot json\n${good(4)}\n`));
    const seen: number[] = [];
    const err = await (async () => {
      for await (const b of readRecordedBatches(path)) for (const r of b) seen.push(r.recvTs);
    })().catch((e: unknown) => e);
    expect(seen).toEqual([1, 2]);
    expect(err).toBeInstanceOf(ImportError);
    expect((err as ImportError).details).toMatchObject({ line: 3, problem: "not JSON" });
  });
});
