import { parsePriceMicro, parseSizeMicro } from "../../book/micro.js";
import type { Side } from "../../core/types.js";
import type { TradeMatchedEvent } from "../../gateway/schema/market-events.js";
import type { VenueEvent } from "../../venue/events.js";
import type { SimVenue } from "../../venue/sim-venue.js";
import { CROWD } from "../sim/actors.js";
import type { BotOrders } from "../sim/bot-orders.js";
import type { ExchangeBooks, LevelChange } from "../sim/exchange-books.js";
import type { MarketSetup } from "../sim/markets.js";
import { QueueModel } from "./queue-model.js";
import type { PrintCounters } from "./queue-model-config.js";
import type { QueueModelSpec } from "./queue-model-spec.js";

/** What the mirror did, for the report. */
export interface MirrorCounters extends PrintCounters {
  placed: number;
  amended: number;
  cancelled: number;
  /** Decreases at the touch that went through a bot order's queue place: trades inferred. */
  inferredTrades: number;
  /** Shares those inferred trades offered the bot, micro-units. */
  inferredQty: bigint;
  /** Mirror placements the venue refused (e.g. a recorded price off the configured tick), by code. */
  readonly rejected: Map<string, number>;
}

interface CrowdLevel {
  readonly orderId: string;
  remaining: bigint;
}

/**
 * The recorded market's resting liquidity inside the venue, so the bot's orders meet the real
 * book with the venue's own matching (DESIGN: one venue model). Rules, per level change of the
 * exchange's book (ExchangeBooks orders them: decreases best-first, then increases):
 * 1. The market (the CROWD account) holds one order per recorded level. An increase of Δ grows it
 *    by Δ (amend, or a new order, which may cross the bot's resting orders: the bot is filled as
 *    maker at its own price — the recorded opposite side moved through its quote).
 * 2. A decrease of Δ shrinks it by Δ (not below 0). Liquidity the bot took stays taken until the
 *    level empties (no double fills), a snapshot re-lists what the recording shows.
 * 3. Queue position (QueueModel, chosen by config): a bot order joins behind the recorded size at
 *    its price. Trades consume the queue from the front: inferred ones (a decrease of the level
 *    while it was its side's best) or the recording's trade prints (`onTrade`), per the model's
 *    `trades` setting. When a trade reaches past a bot order's place, the excess is taken: the
 *    market sends an IOC through the level for it (its own orders at that price and better
 *    stepped aside first), filling the bot's orders at that price or better in price-time
 *    order, as a real aggressor would. Other decreases are cancels: they only shorten the queue
 *    ahead, by the share the model attributes to the front.
 * 4. The bot's own aggressive orders match the mirrored levels at their prices (taker fills).
 * Orders of CROWD are transient in the venue: memory does not grow with the recording.
 */
export class CrowdMirror {
  readonly counters: MirrorCounters = {
    placed: 0,
    amended: 0,
    cancelled: 0,
    inferredTrades: 0,
    inferredQty: 0n,
    rejected: new Map(),
    prints: 0,
    printsIgnored: 0,
    printTrades: 0,
    printQty: 0n,
  };
  readonly queue: QueueModel;
  readonly #venue: SimVenue;
  readonly #books: ExchangeBooks;
  readonly #tokens: Map<string, { marketId: string; outcome: string }>;
  readonly #levels = new Map<string, CrowdLevel>();
  readonly #keyOf = new Map<string, string>();
  readonly #tags: ReadonlyMap<string, number>;

  constructor(
    venue: SimVenue,
    books: ExchangeBooks,
    markets: MarketSetup,
    bot: BotOrders,
    queueModel?: QueueModelSpec,
  ) {
    this.queue = new QueueModel(queueModel);
    this.#venue = venue;
    this.#books = books;
    this.#tokens = new Map(
      markets.tokens.map((t) => [t.tokenId, { marketId: t.marketId, outcome: t.outcome }]),
    );
    this.#tags = new Map(markets.tokens.map((t, i) => [t.tokenId, i]));
    bot.onJoin((o) => {
      const side = o.side === "buy" ? "bid" : "ask";
      const ahead = books.book(o.tokenId).depthAt(side, Number(o.price));
      this.queue.join(o.orderId, o.tokenId, o.side, o.price, ahead);
    });
    bot.onLeave((o) => this.queue.leave(o.orderId));
  }

  /** A level of the exchange's book changed (SimSession.levelChanged). */
  onLevel(c: LevelChange): void {
    if (!this.#tokens.has(c.tokenId)) return;
    const side: Side = c.side === "bid" ? "buy" : "sell";
    const price = BigInt(c.price);
    const key = this.#key(c.tokenId, side, c.price);
    const level = this.#levels.get(key);
    if (c.after > c.before) {
      const delta = c.after - c.before;
      if (level === undefined) this.#place(key, c.tokenId, side, price, delta);
      else this.#resize(key, level, level.remaining + delta);
      this.queue.increase(c.tokenId, side, price);
      return;
    }
    const delta = c.before - c.after;
    const through = this.queue.decrease(c.tokenId, side, price, c.before, c.after, c.wasTouch);
    const left = level === undefined || level.remaining <= delta ? 0n : level.remaining - delta;
    if (through === 0n) {
      if (level !== undefined) this.#resize(key, level, left);
      return;
    }
    if (level !== undefined) this.#resize(key, level, 0n);
    const filled = this.#take(c.tokenId, side, price, through);
    if (filled !== undefined) {
      this.counters.inferredTrades++;
      this.counters.inferredQty += filled;
    }
    if (left > 0n) this.#place(key, c.tokenId, side, price, left);
  }

  /**
   * A recorded trade print (SimSession.traded), used unless the model infers trades. `side` is
   * the aggressor's ("buy" / "sell", any case): the print consumes the queue of the other side.
   */
  onTrade(e: TradeMatchedEvent): void {
    if (!this.queue.usesPrints || !this.#tokens.has(e.tokenId)) return;
    const taker = e.side.toLowerCase();
    const price = parsePriceMicro(e.price);
    const qty = parseSizeMicro(e.quantity);
    if ((taker !== "buy" && taker !== "sell") || price < 0 || qty === undefined || qty === 0n) {
      this.counters.printsIgnored++;
      return;
    }
    this.counters.prints++;
    const side: Side = taker === "buy" ? "sell" : "buy";
    const through = this.queue.trade(e.tokenId, side, BigInt(price), qty);
    if (through > 0n) this.#takeThrough(e.tokenId, side, price, through);
  }

  /** Follows the CROWD orders' fills and cancels (SimSession.venueEvents). */
  onVenueEvent(e: VenueEvent): void {
    if (e.type === "fill" && e.walletAddress === CROWD) {
      const key = this.#keyOf.get(e.orderId);
      const level = key === undefined ? undefined : this.#levels.get(key);
      if (key === undefined || level === undefined) return;
      level.remaining -= e.quantity;
      if (level.remaining <= 0n) this.#forget(key, level);
    } else if ((e.type === "order_cancelled" || e.type === "order_expired") && e.order.userWallet === CROWD) {
      const key = this.#keyOf.get(e.order.id);
      const level = key === undefined ? undefined : this.#levels.get(key);
      if (key !== undefined && level !== undefined) this.#forget(key, level);
    }
  }

  /** The market's size resting in the venue at a price (tests). */
  crowdSize(tokenId: string, side: Side, price: bigint): bigint {
    return this.#levels.get(this.#key(tokenId, side, price))?.remaining ?? 0n;
  }

  #place(key: string, tokenId: string, side: Side, price: bigint, quantity: bigint): void {
    const t = this.#tokens.get(tokenId) as { marketId: string; outcome: string };
    const r = this.#venue.place({ wallet: CROWD, ...t, side, price, quantity, timeInForce: "gtc" });
    if (r.status === "REJECTED") {
      this.#reject(r.code ?? "matcher_error");
      return;
    }
    this.counters.placed++;
    if (r.remainingQty === 0n) return;
    this.#levels.set(key, { orderId: r.orderId, remaining: r.remainingQty });
    this.#keyOf.set(r.orderId, key);
  }

  #resize(key: string, level: CrowdLevel, remaining: bigint): void {
    if (remaining === level.remaining) return;
    if (remaining === 0n) {
      this.#forget(key, level);
      this.#venue.cancel(CROWD, level.orderId);
      this.counters.cancelled++;
      return;
    }
    const r = this.#venue.amend(CROWD, level.orderId, remaining);
    if (r.ok) {
      level.remaining = remaining;
      this.counters.amended++;
    } else {
      this.#reject(r.code);
    }
  }

  // An aggressor of the market: its IOC on the other side, through the bot's orders at `price`
  // and better. Returns what it filled (undefined: nothing to fill).
  #take(tokenId: string, side: Side, price: bigint, quantity: bigint): bigint | undefined {
    const t = this.#tokens.get(tokenId) as { marketId: string; outcome: string };
    const other: Side = side === "buy" ? "sell" : "buy";
    const r = this.#venue.place({ wallet: CROWD, ...t, side: other, price, quantity, timeInForce: "ioc" });
    return r.status === "REJECTED" ? undefined : r.filledQty;
  }

  // A print went past a bot order's place: the market's orders at the print's price and better
  // step aside (an IOC of the market must not meet its own liquidity), the IOC fills the bot in
  // price-time order, and the market's orders come back as the recording shows them.
  #takeThrough(tokenId: string, side: Side, price: number, quantity: bigint): void {
    const levels = this.#books.book(tokenId).side(side === "buy" ? "bid" : "ask");
    const aside: { price: bigint; remaining: bigint }[] = [];
    for (let i = 0; ; i++) {
      const l = levels.at(i);
      if (l === undefined || (side === "buy" ? l.price < price : l.price > price)) break;
      const key = this.#key(tokenId, side, l.price);
      const level = this.#levels.get(key);
      if (level === undefined) continue;
      aside.push({ price: BigInt(l.price), remaining: level.remaining });
      this.#resize(key, level, 0n);
    }
    const filled = this.#take(tokenId, side, BigInt(price), quantity);
    if (filled !== undefined) {
      this.counters.printTrades++;
      this.counters.printQty += filled;
    }
    for (const a of aside)
      this.#place(this.#key(tokenId, side, a.price), tokenId, side, a.price, a.remaining);
  }

  // A level's key: the token's position (not its 78-digit id: the key is built and hashed on every
  // level change), side and price.
  #key(tokenId: string, side: Side, price: bigint | number): string {
    return `${this.#tags.get(tokenId) ?? tokenId}|${side}|${price}`;
  }

  #forget(key: string, level: CrowdLevel): void {
    this.#levels.delete(key);
    this.#keyOf.delete(level.orderId);
  }

  #reject(code: string): void {
    this.counters.rejected.set(code, (this.counters.rejected.get(code) ?? 0) + 1);
  }
}
