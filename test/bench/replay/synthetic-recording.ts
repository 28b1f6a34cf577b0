import { RecordedWriter } from "../../../src/recorded/format.js";
import { mulberry32 } from "../../support/mulberry32.js";

/** What to generate. */
export interface SyntheticOptions {
  /** L2 deltas (price-level changes) to write, snapshots not counted. */
  readonly deltas: number;
  readonly seed?: number;
  /** Binary markets (two tokens each, every token with its own book). Default 3. */
  readonly markets?: number;
  /** Mean price-level changes per book_delta frame (≥ 1). Default 6. */
  readonly meanChanges?: number;
  /** Mean simulated time between frames, ms. Default 5. */
  readonly stepMs?: number;
}

/** What was written. */
export interface SyntheticStats {
  readonly frames: number;
  readonly deltaFrames: number;
  readonly deltas: number;
  readonly trades: number;
  readonly snapshots: number;
  readonly tokens: readonly string[];
  readonly durationMs: number;
}

const TICKS = 1_000; // tick 0.001
const DEPTH = 100; // levels a side in the starting book

/** One token's book in the generator: size in cents per price tick (0 = no level). */
class GenBook {
  readonly sizes = new Int32Array(TICKS);
  bestBid: number;
  bestAsk: number;
  seq = 1;

  constructor(mid: number, size: () => number) {
    this.bestBid = mid - 1;
    this.bestAsk = mid + 1;
    for (let i = 0; i < DEPTH; i++) {
      if (mid - 1 - i >= 1) this.sizes[mid - 1 - i] = size();
      if (mid + 1 + i < TICKS) this.sizes[mid + 1 + i] = size();
    }
  }

  /** Sets a level's size, moving the touch when the best level empties or a better one appears. */
  set(tick: number, cents: number, bid: boolean): void {
    this.sizes[tick] = cents;
    if (bid) {
      if (cents > 0 && tick > this.bestBid) this.bestBid = tick;
      else if (cents === 0 && tick === this.bestBid) {
        let t = tick - 1;
        while (t > 0 && this.sizes[t] === 0) t--;
        this.bestBid = t;
      }
    } else if (cents > 0 && tick < this.bestAsk) this.bestAsk = tick;
    else if (cents === 0 && tick === this.bestAsk) {
      let t = tick + 1;
      while (t < TICKS && this.sizes[t] === 0) t++;
      this.bestAsk = t;
    }
  }

  levels(bid: boolean): { price: string; size: string }[] {
    const out: { price: string; size: string }[] = [];
    for (let t = 1; t < TICKS; t++) {
      const s = this.sizes[t] as number;
      if (s > 0 && (bid ? t <= this.bestBid : t >= this.bestAsk)) out.push({ price: px(t), size: sz(s) });
    }
    return bid ? out.reverse() : out;
  }
}

const px = (tick: number): string => `0.${String(tick).padStart(3, "0")}`;
const sz = (cents: number): string => (cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2));

/**
 * Writes a seeded synthetic recording in the recorded format (RecordedWriter, streaming): a few
 * binary markets, each token with a deep book (about 100 levels a side, tick 0.001, sizes to the
 * cent) around its own mid, then book_delta frames of 1 + Exp(meanChanges − 1) level changes (at
 * most 40) on one token each, a few ms apart. Most changes resize or remove a level away from the
 * touch (depth 1 + Exp(12) levels); about one in fourteen resizes a best level, one in twenty-five
 * empties it (the touch moves out) and others improve the touch inside the spread (more often the
 * wider it is), so the spread stays within a few ticks and the mid wanders, pulled back towards
 * the token's own level. About one frame in 150 is a trade_matched at the touch, followed by the
 * decrease it caused. The book never crosses. Nothing is held in memory.
 */
export async function writeSyntheticRecording(path: string, o: SyntheticOptions): Promise<SyntheticStats> {
  const u = mulberry32(o.seed ?? 1);
  const nMarkets = o.markets ?? 3;
  const mean = Math.max(1, o.meanChanges ?? 6);
  const stepMs = o.stepMs ?? 5;
  const size = () => 100 + Math.floor(u() * u() * 500_000);
  const digits = (n: number) => Array.from({ length: n }, () => Math.floor(u() * 10)).join("");
  const tokens: { id: string; conditionId: string; outcomeIndex: number; home: number; book: GenBook }[] = [];
  for (let m = 0; m < nMarkets; m++) {
    const conditionId = `0x${digits(64).replace(/[89]/g, "a")}`;
    for (let k = 0; k < 2; k++) {
      const home = 250 + Math.floor(u() * 500);
      tokens.push({
        id: `${1 + Math.floor(u() * 9)}${digits(76)}`,
        conditionId,
        outcomeIndex: k,
        home,
        book: new GenBook(home, size),
      });
    }
  }
  const w = RecordedWriter.create(path);
  let ts = 1_750_000_000_000;
  const envelope = (
    type: string,
    channel: string,
    t: (typeof tokens)[number],
    data: Record<string, unknown>,
  ) => ({
    type,
    sid: 1,
    channel,
    id: t.id,
    data: { tokenId: t.id, conditionId: t.conditionId, outcomeIndex: t.outcomeIndex, ...data, tsMs: ts },
  });
  let frames = 0;
  let deltaFrames = 0;
  let deltas = 0;
  let trades = 0;
  for (const t of tokens) {
    const bids = t.book.levels(true);
    const asks = t.book.levels(false);
    await w.write({ recvTs: ts, frame: envelope("book_snapshot", "token_book", t, { seq: 1, bids, asks }) });
    frames++;
  }
  const seen = new Set<number>();
  while (deltas < o.deltas) {
    ts += Math.max(1, Math.round(-Math.log(1 - u()) * stepMs));
    const t = tokens[Math.floor(u() * tokens.length)] as (typeof tokens)[number];
    const b = t.book;
    const changes: { side: string; price: string; size: string }[] = [];
    seen.clear();
    const change = (tick: number, bid: boolean, cents: number) => {
      const key = bid ? tick : -tick;
      if (tick < 1 || tick >= TICKS || seen.has(key)) return;
      if (bid ? tick >= b.bestAsk : tick <= b.bestBid) return;
      if (cents === 0 && b.sizes[tick] === 0) return;
      seen.add(key);
      b.set(tick, cents, bid);
      changes.push({ side: bid ? "buy" : "sell", price: px(tick), size: sz(cents) });
    };
    if (u() < 1 / 150) {
      // A trade at the touch, then the decrease it caused.
      const bid = u() < 0.5;
      const tick = bid ? b.bestBid : b.bestAsk;
      const have = b.sizes[tick] as number;
      if (have > 0) {
        const took = Math.max(1, Math.floor(have * u()));
        await w.write({
          recvTs: ts,
          frame: envelope("trade_matched", "token_trade_matches", t, {
            tradeId: `t${trades}`,
            price: px(tick),
            quantity: sz(took),
            side: bid ? "sell" : "buy",
            source: "clob",
          }),
        });
        frames++;
        trades++;
        change(tick, bid, have - took);
      }
    }
    const n = Math.min(40, 1 + Math.floor(-Math.log(1 - u()) * (mean - 1)));
    // Drift towards the token's own mid keeps a long run inside (0, 1).
    const mid = (b.bestBid + b.bestAsk) / 2;
    const pull = Math.max(-0.2, Math.min(0.2, (t.home - mid) / 400));
    const trade = changes.length;
    for (let tries = 0; tries < 4 * n && changes.length - trade < n; tries++) {
      const r = u();
      const bid = u() < 0.5;
      const spread = b.bestAsk - b.bestBid;
      if (spread > 1 && (r < 0.05 || (spread > 3 && r < 0.5))) {
        // Someone improves the touch inside the spread: likelier the wider it is, and on the side
        // the drift favours.
        const side = u() < 0.5 + pull;
        change(side ? b.bestBid + 1 : b.bestAsk - 1, side, size());
      } else if (r < 0.09) {
        // A best level empties (the touch moves out a tick or more): more often on the side the
        // drift moves away from.
        const side = u() < 0.5 - pull;
        change(side ? b.bestBid : b.bestAsk, side, 0);
      } else if (r < 0.16) {
        change(bid ? b.bestBid : b.bestAsk, bid, size()); // the best level resized
      } else {
        const depth = 1 + Math.min(DEPTH - 1, Math.floor(-Math.log(1 - u()) * 12));
        const tick = bid ? b.bestBid - depth : b.bestAsk + depth;
        change(tick, bid, u() < 0.12 ? 0 : size());
      }
    }
    if (changes.length === 0) continue;
    b.seq++;
    await w.write({
      recvTs: ts,
      frame: envelope("book_delta", "token_book", t, { seq: b.seq, prevSeq: b.seq - 1, changes }),
    });
    frames++;
    deltaFrames++;
    deltas += changes.length;
  }
  await w.close();
  return {
    frames,
    deltaFrames,
    deltas,
    trades,
    snapshots: tokens.length,
    tokens: tokens.map((t) => t.id),
    durationMs: ts - 1_750_000_000_000,
  };
}
