import type { BacktestFill } from "../sim/bot-fills.js";

interface Pending {
  readonly target: number;
  readonly tokenId: string;
  /** +1 for a buy, −1 for a sell. */
  readonly sign: 1n | -1n;
  readonly price: bigint;
  readonly quantity: bigint;
}

/** Markouts at one horizon, exact sums. */
export interface MarkoutFigures {
  readonly horizonMs: number;
  /** Fills whose horizon fell inside the data. */
  readonly fills: number;
  /**
   * Fills whose horizon passed the end of the data (not counted), but those of a token whose
   * market resolved with payouts by then (counted at the payout).
   */
  readonly unresolved: number;
  /** Σ quantity of the counted fills, micro-shares. */
  readonly quantity: bigint;
  /** Σ sign·(mid(t + h) − price)·quantity, half-pico-USDC. */
  readonly value2: bigint;
}

/**
 * Markouts of the bot's fills: for a fill at time t, price p, quantity q, and each horizon h, the
 * value sign·(mid(t + h) − p)·q (sign +1 buy, −1 sell: positive = the market moved our way).
 * mid(t + h) is the mark after every market event and fill at or before t + h (the exchange's mid,
 * bounded by the side left of a one-sided book: Recorder.mid2; a fill moves it for a token marked at its last trade); a horizon is settled when the first market
 * event or fill after it arrives (`resolve`, before either moves the mark) or at the end, where one
 * past the end is settled at its token's payout if its market resolved, else left unresolved.
 * Pending fills are kept per horizon in time order, so memory is bounded by the fills within the
 * longest horizon.
 */
export class Markouts {
  readonly #horizons: readonly number[];
  readonly #pending: Pending[][];
  readonly #heads: number[];
  readonly #sums: { fills: number; quantity: bigint; value2: bigint }[];

  constructor(horizonsMs: readonly number[]) {
    this.#horizons = horizonsMs;
    this.#pending = horizonsMs.map(() => []);
    this.#heads = horizonsMs.map(() => 0);
    this.#sums = horizonsMs.map(() => ({ fills: 0, quantity: 0n, value2: 0n }));
  }

  /** A fill to mark out. */
  add(f: BacktestFill): void {
    this.#horizons.forEach((h, i) => {
      (this.#pending[i] as Pending[]).push({
        target: f.tsMs + h,
        tokenId: f.tokenId,
        sign: f.side === "buy" ? 1n : -1n,
        price: f.price,
        quantity: f.quantity,
      });
    });
  }

  /** Settles every horizon that ended strictly before `now` at the mids as they stand (`mid2` = bid + ask, micro). */
  resolve(now: number, mid2: (tokenId: string) => bigint | undefined): void {
    this.#settle((p) => p.target < now, mid2);
  }

  /**
   * Settles the horizons that ended by `endMs` at the mids as they stand, and those past it of a
   * token with a `final` mark (its market resolved with payouts: the payout is its value at every
   * later time, so the data ending first leaves nothing unknown); the rest are unresolved. Returns
   * the figures.
   */
  finish(
    endMs: number,
    mid2: (tokenId: string) => bigint | undefined,
    final: (tokenId: string) => bigint | undefined = () => undefined,
  ): MarkoutFigures[] {
    this.#settle((p) => p.target <= endMs, mid2);
    return this.#horizons.map((horizonMs, i) => {
      const s = this.#sums[i] as { fills: number; quantity: bigint; value2: bigint };
      let unresolved = 0;
      for (const p of (this.#pending[i] as Pending[]).slice(this.#heads[i] as number)) {
        const m = final(p.tokenId);
        if (m === undefined) unresolved++;
        else add(s, p, m);
      }
      return { horizonMs, fills: s.fills, unresolved, quantity: s.quantity, value2: s.value2 };
    });
  }

  #settle(due: (p: Pending) => boolean, mid2: (tokenId: string) => bigint | undefined): void {
    for (let i = 0; i < this.#horizons.length; i++) {
      const list = this.#pending[i] as Pending[];
      let head = this.#heads[i] as number;
      const s = this.#sums[i] as { fills: number; quantity: bigint; value2: bigint };
      while (head < list.length && due(list[head] as Pending)) {
        const p = list[head++] as Pending;
        const m = mid2(p.tokenId);
        if (m !== undefined) add(s, p, m);
      }
      if (head > 1024 && head * 2 > list.length) {
        list.splice(0, head);
        head = 0;
      }
      this.#heads[i] = head;
    }
  }
}

// One markout into the sums, at the mark `mid2` (bid + ask, micro).
function add(s: { fills: number; quantity: bigint; value2: bigint }, p: Pending, mid2: bigint): void {
  s.fills++;
  s.quantity += p.quantity;
  s.value2 += p.sign * (mid2 - 2n * p.price) * p.quantity;
}
