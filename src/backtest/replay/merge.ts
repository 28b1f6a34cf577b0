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

/**
 * mergeByRecvTs over batched streams (readRecordedBatches), yielding batches: the same order (by
 * recvTs, ties to the earlier stream, each stream's own order kept), one await per batch instead
 * of per record. Holds one batch per stream. A single stream passes through untouched.
 * @example for await (const b of mergeBatchesByRecvTs(files.map((f) => readRecordedBatches(f)))) for (const r of b) replay(r);
 */
export async function* mergeBatchesByRecvTs(
  streams: readonly AsyncIterable<RecordedFrame[]>[],
): AsyncGenerator<RecordedFrame[]> {
  if (streams.length === 1) {
    yield* streams[0] as AsyncIterable<RecordedFrame[]>;
    return;
  }
  const its = streams.map((s) => s[Symbol.asyncIterator]());
  const batches: (RecordedFrame[] | undefined)[] = its.map(() => []);
  const at = its.map(() => 0);
  try {
    let out: RecordedFrame[] = [];
    for (;;) {
      // Every stream needs a head to compare: refill the exhausted ones (after handing over what is merged).
      for (let i = 0; i < its.length; i++) {
        let b = batches[i];
        while (b !== undefined && (at[i] as number) >= b.length) {
          if (out.length > 0) {
            yield out;
            out = [];
          }
          const next = await (its[i] as AsyncIterator<RecordedFrame[]>).next();
          b = next.done === true ? undefined : next.value;
          batches[i] = b;
          at[i] = 0;
        }
      }
      let best = -1;
      let bestTs = 0;
      for (let i = 0; i < its.length; i++) {
        const b = batches[i];
        if (b === undefined) continue;
        const ts = (b[at[i] as number] as RecordedFrame).recvTs;
        if (best < 0 || ts < bestTs) {
          best = i;
          bestTs = ts;
        }
      }
      if (best < 0) break;
      const b = batches[best] as RecordedFrame[];
      // Take from the best stream while it stays ahead of every other head.
      do {
        out.push(b[at[best] as number] as RecordedFrame);
        at[best] = (at[best] as number) + 1;
      } while ((at[best] as number) < b.length && staysFirst(batches, at, best));
    }
    if (out.length > 0) yield out;
  } finally {
    await Promise.all(its.map((it) => it.return?.()));
  }
}

// Whether stream `best`'s current head still comes first: strictly earlier than every earlier
// stream's head, and no later than every later stream's (ties go to the earlier stream).
function staysFirst(
  batches: readonly (RecordedFrame[] | undefined)[],
  at: readonly number[],
  best: number,
): boolean {
  const ts = ((batches[best] as RecordedFrame[])[at[best] as number] as RecordedFrame).recvTs;
  for (let i = 0; i < batches.length; i++) {
    if (i === best) continue;
    const b = batches[i];
    if (b === undefined) continue;
    const other = (b[at[i] as number] as RecordedFrame).recvTs;
    if (i < best ? other <= ts : other < ts) return false;
  }
  return true;
}
