import type { TokenMarket } from "../../core/trading.js";
import type { Side } from "../../core/types.js";
import type { SimVenue } from "../../venue/sim-venue.js";
import { FLOW } from "../sim/actors.js";
import type { BotOrder, BotOrders } from "../sim/bot-orders.js";
import type { Uniform } from "./rng.js";

/** The intensity fill model's parameters. */
export interface FillModelSettings {
  /** A: arrivals per second at zero distance. */
  readonly A: number;
  /** k: decay per price unit of distance from the mid. */
  readonly k: number;
  /** `linear`: P = min(1, λ·dt) (the market-making literature); `exponential`: P = 1 − e^(−λ·dt). */
  readonly probability: "linear" | "exponential";
  /** Shares per fill, micro-units (a fill never exceeds the order's remaining size). */
  readonly sizeMicro: bigint;
}

/**
 * Avellaneda–Stoikov style fills: each step of dt seconds, each resting order of the bot at
 * distance δ from the mid (δ = mid − bid, or ask − mid, price units) is hit with probability
 * P(λ(δ)·dt), λ(δ) = A·e^(−kδ), one uniform per order, orders taken bids first, then asks, best
 * price first. A hit is a taker order of the FLOW account at the order's price for `size` through
 * the venue, so the fill, its fee and its accounting are the venue's own; like any taker at that
 * price it fills our better-priced orders on that side first (one level per side: just this one).
 */
export class IntensityFlow {
  readonly #venue: SimVenue;
  readonly #bot: BotOrders;
  readonly #market: TokenMarket;
  readonly #s: FillModelSettings;
  readonly #u: Uniform;
  /** Hits sent so far. */
  hits = 0;

  constructor(venue: SimVenue, bot: BotOrders, market: TokenMarket, s: FillModelSettings, u: Uniform) {
    this.#venue = venue;
    this.#bot = bot;
    this.#market = market;
    this.#s = s;
    this.#u = u;
  }

  /** One step of `dtSeconds` against the mid `mid2Micro / 2` (bid + ask, micro). */
  step(dtSeconds: number, mid2Micro: bigint): void {
    const orders = [...this.#bot.all()].filter((o) => o.tokenId === this.#market.tokenId).sort(priority);
    for (const o of orders) {
      const u = this.#u();
      if (o.remaining <= 0n) continue;
      const delta = Number(o.side === "buy" ? mid2Micro - 2n * o.price : 2n * o.price - mid2Micro) / 2e6;
      const lambda = this.#s.A * Math.exp(-this.#s.k * delta);
      const p =
        this.#s.probability === "linear"
          ? Math.min(1, lambda * dtSeconds)
          : 1 - Math.exp(-lambda * dtSeconds);
      if (u < p) this.#hit(o);
    }
  }

  #hit(o: BotOrder): void {
    const side: Side = o.side === "buy" ? "sell" : "buy";
    const quantity = o.remaining < this.#s.sizeMicro ? o.remaining : this.#s.sizeMicro;
    const m = this.#market;
    this.#venue.place({
      wallet: FLOW,
      marketId: m.marketId,
      outcome: m.outcome,
      side,
      price: o.price,
      quantity,
      timeInForce: "ioc",
    });
    this.hits++;
  }
}

// Bids before asks, best price first, then placement order (order ids are time-ordered).
function priority(a: BotOrder, b: BotOrder): number {
  if (a.side !== b.side) return a.side === "buy" ? -1 : 1;
  if (a.price !== b.price) return (a.side === "buy" ? a.price > b.price : a.price < b.price) ? -1 : 1;
  return a.orderId < b.orderId ? -1 : a.orderId > b.orderId ? 1 : 0;
}
