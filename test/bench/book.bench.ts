import type { BookDeltaEvent, BookEvent } from "../../src/book/events.js";
import { isFrameRejection, parseBookFrame } from "../../src/book/frame.js";
import { bookWithout, type OwnLevel } from "../../src/book/net-book.js";
import { type BookView, OrderBook } from "../../src/book/order-book.js";
import { BookTracker } from "../../src/book/tracker.js";
import { SimClock } from "../../src/core/sim-clock.js";
import { copyWithout } from "../unit/book/copy-without.js";
import type { BenchCase } from "./harness.js";

export const title = "Order book and BookTracker (one core)";

/*
 * A 100-level-per-side book (bids 0.400–0.499, asks 0.501–0.600, tick 0.001) and 10,000
 * book_delta frames shaped like the real Polymarket capture: 1–3 changes per frame (mostly 1),
 * prices near the touch more often than deep, sizes with two decimals, 10% removals (a later
 * change re-adds the level, so the book stays near 100 levels a side). Each timed batch replays
 * the 10,000 deltas after re-applying the starting snapshot (1 snapshot per 10,000 deltas).
 *
 * The net book (the book without our orders, what strategies price from): on the same 100-level
 * book with 4 of our orders (a whole touch level and a part of another on each side), one op is
 * bookWithout followed by a bands strategy's reads (best bid, best ask, mid): the copy bookWithout
 * used to make (reimplemented below) against the lazy overlay that replaced it.
 */

const TOKEN = "71321045679252212594626385532706912750332728571942532289631379312455583992563";
const N = 10_000;

function lcg(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

function frames(): { snapshot: string; deltas: string[] } {
  const u = lcg(7);
  const px = (milli: number) => `0.${String(milli).padStart(3, "0")}`;
  const size = () => (1 + u() * 9_999).toFixed(2);
  const bids = Array.from({ length: 100 }, (_, i) => ({ price: px(499 - i), size: size() }));
  const asks = Array.from({ length: 100 }, (_, i) => ({ price: px(501 + i), size: size() }));
  const envelope = (type: string, data: Record<string, unknown>) =>
    JSON.stringify({ type, sid: "s1", channel: "token_book", id: TOKEN, data: { tokenId: TOKEN, ...data } });
  const snapshot = envelope("book_snapshot", {
    conditionId: `0x${"ab".repeat(32)}`,
    outcomeIndex: 0,
    bids,
    asks,
    seq: 1,
    tsMs: 1,
  });
  const deltas: string[] = [];
  for (let i = 0; i < N; i++) {
    const k = u() < 0.77 ? 1 : u() < 0.6 ? 2 : 3;
    const changes = Array.from({ length: k }, () => {
      const bid = u() < 0.5;
      const depth = Math.min(99, Math.floor(-Math.log(1 - u()) * 12)); // near the touch more often
      return {
        side: bid ? "buy" : "sell",
        price: px(bid ? 499 - depth : 501 + depth),
        size: u() < 0.1 ? "0" : size(),
      };
    });
    deltas.push(
      envelope("book_delta", {
        conditionId: `0x${"ab".repeat(32)}`,
        outcomeIndex: 0,
        seq: i + 2,
        prevSeq: i + 1,
        changes,
        tsMs: 1_700_000_000_000 + i,
      }),
    );
  }
  return { snapshot, deltas };
}

function parsed(text: string): BookEvent {
  const e = parseBookFrame(JSON.parse(text));
  if (isFrameRejection(e)) throw new Error(`bench frame rejected: ${e.rejected}`);
  return e;
}

function tracker(): BookTracker {
  return new BookTracker({ clock: new SimClock(0), port: { requestSnapshot: () => true } });
}

function quotingBook(): { book: OrderBook; own: OwnLevel[] } {
  const u = lcg(11);
  const book = new OrderBook(TOKEN);
  for (let i = 0; i < 100; i++) {
    book.apply("bid", 499_000 - i * 1_000, BigInt(Math.floor(1 + u() * 9_999)) * 1_000_000n);
    book.apply("ask", 501_000 + i * 1_000, BigInt(Math.floor(1 + u() * 9_999)) * 1_000_000n);
  }
  const own: OwnLevel[] = [
    { side: "buy", priceMicro: 499_000, sizeMicro: book.depthAt("bid", 499_000) },
    { side: "buy", priceMicro: 497_000, sizeMicro: 10_000_000n },
    { side: "sell", priceMicro: 501_000, sizeMicro: book.depthAt("ask", 501_000) },
    { side: "sell", priceMicro: 503_000, sizeMicro: 10_000_000n },
  ];
  return { book, own };
}

/** A bands strategy's reads of the net book; returns something of each so nothing is optimised away. */
function bandsReads(net: BookView): number {
  const bid = net.bestBid();
  const ask = net.bestAsk();
  return (bid?.price ?? 0) + (ask?.price ?? 0) + (net.mid()?.isZero() === true ? 0 : 1);
}

export function benches(): BenchCase[] {
  const { snapshot, deltas } = frames();
  const snapEvent = parsed(snapshot);
  const events = deltas.map(parsed) as BookDeltaEvent[];
  const t1 = tracker();
  const t2 = tracker();
  let sink = 0;
  const check = (t: BookTracker) => {
    const s = t.state(TOKEN);
    if (s?.status !== "synced" || s.lastSeq !== N + 1)
      throw new Error(`bench tracker out of sync: ${JSON.stringify(s)}`);
  };
  const q = quotingBook();
  const copied = bandsReads(copyWithout(q.book, q.own));
  if (bandsReads(bookWithout(q.book, q.own)) !== copied)
    throw new Error("bench overlay disagrees with the copy");
  let netSink = 0;
  const checkNet = (n: number) => {
    if (netSink !== copied * n) throw new Error(`bench net book read ${netSink}, not ${copied * n}`);
    netSink = 0;
  };
  return [
    {
      name: "bare JSON.parse of the delta frames (baseline)",
      baseline: true,
      batch: N,
      run: (n) => {
        for (let i = 0; i < n; i++) sink += (JSON.parse(deltas[i] as string) as { type: string }).type.length;
      },
      teardown: () => {
        if (sink === 0) throw new Error("baseline parsed nothing");
      },
    },
    {
      name: "tracker: apply pre-parsed delta (100-level book)",
      batch: N,
      run: (n) => {
        t1.onEvent(snapEvent);
        for (let i = 0; i < n; i++) t1.onEvent(events[i] as BookDeltaEvent);
        check(t1);
      },
    },
    {
      name: "tracker: raw frame → JSON.parse + validate + apply",
      batch: N,
      run: (n) => {
        t2.onEvent(snapEvent);
        for (let i = 0; i < n; i++) {
          const e = parseBookFrame(JSON.parse(deltas[i] as string));
          if (!isFrameRejection(e)) t2.onEvent(e);
        }
        check(t2);
      },
    },
    {
      name: "net book: copy (old) + best bid/ask + mid",
      batch: N,
      run: (n) => {
        for (let i = 0; i < n; i++) netSink += bandsReads(copyWithout(q.book, q.own));
        checkNet(n);
      },
    },
    {
      name: "net book: overlay + best bid/ask + mid",
      batch: N,
      run: (n) => {
        for (let i = 0; i < n; i++) netSink += bandsReads(bookWithout(q.book, q.own));
        checkNet(n);
      },
    },
  ];
}
