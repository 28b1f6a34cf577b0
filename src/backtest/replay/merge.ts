import type { RecordedFrame } from "../../recorded/format.js";

/**
 * Merges recorded streams into one in receive-time order (recvTs; ties keep the earlier stream
 * first, and each stream's own order). Holds one pending record per stream, so memory does not
 * depend on the files' sizes. A stream whose own records go back in time is passed through as it
 * is (the clock then treats those records as arriving "now").
 * @example for await (const r of mergeByRecvTs(files.map((f) => readRecorded(f)))) replay(r);
 */
export async function* mergeByRecvTs(
  streams: readonly AsyncIterable<RecordedFrame>[],
): AsyncGenerator<RecordedFrame> {
  const its = streams.map((s) => s[Symbol.asyncIterator]());
  const heads: (RecordedFrame | undefined)[] = await Promise.all(
    its.map(async (it) => (await it.next()).value),
  );
  try {
    for (;;) {
      let best = -1;
      for (let i = 0; i < heads.length; i++) {
        const h = heads[i];
        if (h !== undefined && (best < 0 || h.recvTs < (heads[best] as RecordedFrame).recvTs)) best = i;
      }
      if (best < 0) return;
      yield heads[best] as RecordedFrame;
      const next = await (its[best] as AsyncIterator<RecordedFrame>).next();
      heads[best] = next.done === true ? undefined : next.value;
    }
  } finally {
    await Promise.all(its.map((it) => it.return?.()));
  }
}

/** A batched stream of the merge that is opened only when its first record is next. */
export interface LazyBatchStream {
  /** The receive time of the stream's first record (the stream is not empty). */
  readonly firstRecvTs: number;
  /** Opens the stream; called at most once. */
  open(): AsyncIterable<RecordedFrame[]>;
}

/**
 * mergeByRecvTs over batched streams (readRecordedBatches), yielding batches: the same order (by
 * recvTs, ties to the earlier stream, each stream's own order kept), one await per batch instead
 * of per record. Holds one batch per stream. A single stream passes through untouched.
 * @example for await (const b of mergeBatchesByRecvTs(files.map((f) => readRecordedBatches(f)))) for (const r of b) replay(r);
 */
export function mergeBatchesByRecvTs(
  streams: readonly AsyncIterable<RecordedFrame[]>[],
): AsyncGenerator<RecordedFrame[]> {
  if (streams.length === 1) return passThrough(() => streams[0] as AsyncIterable<RecordedFrame[]>);
  return merge(streams.map((s) => ({ state: "open", it: s[Symbol.asyncIterator](), batch: [], at: 0 })));
}

/**
 * mergeBatchesByRecvTs over streams opened lazily: a stream takes part in the order with its first
 * record's receive time, is opened only when that record is next, and is let go once used up. The
 * output is exactly mergeBatchesByRecvTs's over the opened streams; but only the streams that
 * overlap in time are open (and hold a batch) together, so that the many rotated files of a long
 * recording cost the memory of one or two.
 * @example
 * const streams = files.map((f, i) => ({ firstRecvTs: firsts[i], open: () => readRecordedBatches(f) }));
 * for await (const b of mergeLazyBatchesByRecvTs(streams)) for (const r of b) replay(r);
 */
export function mergeLazyBatchesByRecvTs(
  streams: readonly LazyBatchStream[],
): AsyncGenerator<RecordedFrame[]> {
  if (streams.length === 1) return passThrough(() => (streams[0] as LazyBatchStream).open());
  return merge(streams.map((s) => ({ state: "pending", ts: s.firstRecvTs, open: () => s.open() })));
}

async function* passThrough(open: () => AsyncIterable<RecordedFrame[]>): AsyncGenerator<RecordedFrame[]> {
  yield* open();
}

/** One stream of the merge: not opened yet, open (its batch and the next record's index), or used up. */
type Slot =
  | { state: "pending"; readonly ts: number; readonly open: () => AsyncIterable<RecordedFrame[]> }
  | { state: "open"; readonly it: AsyncIterator<RecordedFrame[]>; batch: RecordedFrame[]; at: number }
  | { state: "done" };

async function* merge(slots: Slot[]): AsyncGenerator<RecordedFrame[]> {
  try {
    let out: RecordedFrame[] = [];
    for (;;) {
      // Every open stream needs a head to compare: refill the exhausted ones (after handing over
      // what is merged).
      for (let i = 0; i < slots.length; i++) {
        let s = slots[i] as Slot;
        while (s.state === "open" && s.at >= s.batch.length) {
          if (out.length > 0) {
            yield out;
            out = [];
          }
          const next = await s.it.next();
          if (next.done === true) s = { state: "done" };
          else s = { state: "open", it: s.it, batch: next.value, at: 0 };
          slots[i] = s;
        }
      }
      let best = -1;
      let bestTs = 0;
      for (let i = 0; i < slots.length; i++) {
        const ts = headTs(slots[i] as Slot);
        if (ts !== undefined && (best < 0 || ts < bestTs)) {
          best = i;
          bestTs = ts;
        }
      }
      if (best < 0) break;
      const s = slots[best] as Slot;
      if (s.state === "pending") {
        // Its first record is next: open it (the refill above reads its first batch).
        if (out.length > 0) {
          yield out;
          out = [];
        }
        slots[best] = { state: "open", it: s.open()[Symbol.asyncIterator](), batch: [], at: 0 };
        continue;
      }
      if (s.state !== "open") break;
      // Take from the best stream while it stays first: strictly before every earlier stream's head
      // and no later than every later stream's (ties go to the earlier stream). The other heads do
      // not move meanwhile, so their bounds are computed once per run, not once per record.
      const [earlier, later] = otherHeads(slots, best);
      let ts: number;
      do {
        out.push(s.batch[s.at] as RecordedFrame);
        s.at++;
        ts = (s.batch[s.at] as RecordedFrame | undefined)?.recvTs ?? Number.NaN;
      } while (ts < earlier && ts <= later);
    }
    if (out.length > 0) yield out;
  } finally {
    await Promise.all(slots.map((s) => (s.state === "open" ? s.it.return?.() : undefined)));
  }
}

// The receive time of a stream's next record; undefined when it has none.
function headTs(s: Slot): number | undefined {
  if (s.state === "pending") return s.ts;
  if (s.state === "open") return s.batch[s.at]?.recvTs;
  return undefined;
}

// The earliest head among the streams before `best`, and among those after it (Infinity: none).
function otherHeads(slots: readonly Slot[], best: number): [number, number] {
  let earlier = Number.POSITIVE_INFINITY;
  let later = Number.POSITIVE_INFINITY;
  for (let i = 0; i < slots.length; i++) {
    const ts = i === best ? undefined : headTs(slots[i] as Slot);
    if (ts === undefined) continue;
    if (i < best) earlier = Math.min(earlier, ts);
    else later = Math.min(later, ts);
  }
  return [earlier, later];
}
