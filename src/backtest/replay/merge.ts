import type { RecordedFrame } from "../import/recorded-format.js";

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
