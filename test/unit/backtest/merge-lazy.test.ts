import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type LazyBatchStream,
  mergeByRecvTs,
  mergeLazyBatchesByRecvTs,
} from "../../../src/backtest/replay/merge.js";
import type { RecordedFrame } from "../../../src/recorded/format.js";

/*
 * A replay of a directory merges its files by receive time. The lazy merge opens a file only when
 * its first record is next and lets it go once it is used up, so that a long recording rotated
 * into many files does not hold them all open (and a batch of each in memory) at once. Its output
 * must be exactly the record-at-a-time merge's: ties to the earlier file, each file's own order.
 */

const rec = (stream: number, i: number, recvTs: number): RecordedFrame => ({
  recvTs,
  frame: { type: "book_delta", id: `${stream}:${i}` },
});

async function* records(list: readonly RecordedFrame[]): AsyncGenerator<RecordedFrame> {
  for (const r of list) yield r;
}

/** What the test sees of the streams: when each was opened and closed, in records handed out. */
interface Probe {
  delivered: number;
  readonly opened: Map<number, number>;
  readonly closed: Map<number, number>;
  open: number;
  maxOpen: number;
}

function lazy(
  lists: readonly RecordedFrame[][],
  cuts: readonly (readonly number[])[],
  probe: Probe,
): LazyBatchStream[] {
  return lists.map((list, k) => ({
    firstRecvTs: (list[0] as RecordedFrame).recvTs,
    open: () => {
      if (probe.opened.has(k)) throw new Error(`stream ${k} opened twice`);
      probe.opened.set(k, probe.delivered);
      probe.maxOpen = Math.max(probe.maxOpen, ++probe.open);
      return (async function* () {
        try {
          let from = 0;
          for (const c of [...(cuts[k] ?? []), list.length]) {
            const to = Math.min(list.length, from + c);
            if (to > from) yield list.slice(from, to);
            from = to;
          }
        } finally {
          probe.open--;
          probe.closed.set(k, probe.delivered);
        }
      })();
    },
  }));
}

const newProbe = (): Probe => ({ delivered: 0, opened: new Map(), closed: new Map(), open: 0, maxOpen: 0 });

async function drain(it: AsyncIterable<RecordedFrame[]>, probe: Probe): Promise<RecordedFrame[]> {
  const out: RecordedFrame[] = [];
  for await (const b of it) {
    out.push(...b);
    probe.delivered += b.length;
  }
  return out;
}

describe("mergeLazyBatchesByRecvTs", () => {
  it("gives mergeByRecvTs's order, opens a stream when its first record is next, closes it when used up", async () => {
    const stream = fc.record({
      times: fc.array(fc.integer({ min: 0, max: 30 }), { minLength: 1, maxLength: 30 }),
      cuts: fc.array(fc.integer({ min: 1, max: 7 }), { maxLength: 10 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(stream, { minLength: 1, maxLength: 5 }), async (streams) => {
        const lists = streams.map((s, k) => s.times.map((t, i) => rec(k, i, t)));
        const expected = await (async () => {
          const out: RecordedFrame[] = [];
          for await (const r of mergeByRecvTs(lists.map((l) => records(l)))) out.push(r);
          return out;
        })();
        const probe = newProbe();
        const got = await drain(
          mergeLazyBatchesByRecvTs(
            lazy(
              lists,
              streams.map((s) => s.cuts),
              probe,
            ),
          ),
          probe,
        );
        expect(got.map((r) => r.frame.id)).toEqual(expected.map((r) => r.frame.id));
        const ids = expected.map((r) => r.frame.id);
        lists.forEach((list, k) => {
          const first = ids.indexOf((list[0] as RecordedFrame).frame.id);
          const last = ids.indexOf((list[list.length - 1] as RecordedFrame).frame.id);
          expect(probe.opened.get(k)).toBe(first); // everything before it was handed out
          expect(probe.closed.get(k)).toBe(last + 1); // closed as soon as its last record was handed out
        });
        expect(probe.open).toBe(0);
      }),
      { numRuns: 300 },
    );
  });

  it("holds one stream open at a time for consecutive files; ties at a boundary go to the earlier file", async () => {
    // 50 rotated files of one recording: file k+1's first record has file k's last receive time.
    const lists = Array.from({ length: 50 }, (_, k) =>
      Array.from({ length: 20 }, (_, i) => rec(k, i, k * 19 + i)),
    );
    const probe = newProbe();
    const got = await drain(
      mergeLazyBatchesByRecvTs(
        lazy(
          lists,
          lists.map(() => [6]),
          probe,
        ),
      ),
      probe,
    );
    expect(got.map((r) => r.frame.id)).toEqual(lists.flat().map((r) => r.frame.id));
    expect(probe.maxOpen).toBe(1);
  });

  it("closes the open streams and never opens the others when the consumer stops early", async () => {
    const lists = Array.from({ length: 10 }, (_, k) =>
      Array.from({ length: 5 }, (_, i) => rec(k, i, k * 100 + i)),
    );
    const probe = newProbe();
    for await (const b of mergeLazyBatchesByRecvTs(
      lazy(
        lists,
        lists.map(() => [2]),
        probe,
      ),
    )) {
      probe.delivered += b.length;
      if (probe.delivered >= 7) break;
    }
    expect([...probe.opened.keys()]).toEqual([0, 1]);
    expect(probe.open).toBe(0);
  });
});
