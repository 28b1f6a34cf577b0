import type { RecordedFrame } from "../../../../src/recorded/format.js";

/**
 * The n-th recorded token_book frame of a small, valid book stream received at `ts`: a snapshot
 * (0.48 / 0.52, 100 each) for n = 1, then deltas n = 2, 3, … alternating a bid at 0.47 and an ask
 * at 0.53 of size n, each contiguous with the one before (seq n, prevSeq n − 1).
 */
export function bookFrame(tokenId: string, conditionId: string, n: number, ts: number): RecordedFrame {
  const data =
    n === 1
      ? {
          tokenId,
          conditionId,
          seq: 1,
          bids: [{ price: "0.48", size: "100" }],
          asks: [{ price: "0.52", size: "100" }],
          tsMs: ts,
        }
      : {
          tokenId,
          conditionId,
          seq: n,
          prevSeq: n - 1,
          changes: [
            { side: n % 2 === 0 ? "buy" : "sell", price: n % 2 === 0 ? "0.47" : "0.53", size: String(n) },
          ],
          tsMs: ts,
        };
  return {
    recvTs: ts,
    frame: {
      type: n === 1 ? "book_snapshot" : "book_delta",
      sid: 1,
      channel: "token_book",
      id: tokenId,
      data,
    },
  };
}
