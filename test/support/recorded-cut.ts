import { constants, createGzip } from "node:zlib";
import type { RecordedFrame } from "../../src/recorded/format.js";

/**
 * What a killed recorder leaves: each piece of text sync-flushed through gzip (as the recorder's
 * timer does), and no gzip end.
 * @example writeFileSync(path, await crashCut([completeLines, partialLine]));
 */
export async function crashCut(pieces: readonly string[]): Promise<Buffer> {
  const gz = createGzip();
  const out: Buffer[] = [];
  gz.on("data", (b: Buffer) => out.push(b));
  for (const p of pieces) {
    gz.write(p);
    await new Promise<void>((r) => gz.flush(constants.Z_SYNC_FLUSH, () => r()));
  }
  await new Promise((r) => setImmediate(r));
  gz.destroy();
  return Buffer.concat(out);
}

/** The i-th record of a contiguous book_delta stream of token 4242 (seq i + 2), received at 1.75e12 + i ms. */
export function deltaRecord(i: number): RecordedFrame {
  return {
    recvTs: 1_750_000_000_000 + i,
    frame: {
      type: "book_delta",
      sid: 1,
      channel: "token_book",
      id: "4242",
      data: {
        tokenId: "4242",
        seq: i + 2,
        prevSeq: i + 1,
        changes: [{ side: "buy", price: "0.5", size: String(i) }],
      },
    },
  };
}
