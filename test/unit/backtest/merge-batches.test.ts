import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mergeBatchesByRecvTs, mergeByRecvTs } from "../../../src/backtest/replay/merge.js";
import type { RecordedFrame } from "../../../src/recorded/format.js";

/*
 * The replay reads batches (readRecordedBatches, tested in test/unit/recorded) and merges them
 * (mergeBatchesByRecvTs): one await per batch instead of per record. The batched merge must give
 * exactly the records, in exactly the order, of the record-at-a-time version.
 */

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
