import { parsePriceMicro, parseSizeMicro } from "../../book/micro.js";
import type { Side } from "../../core/types.js";
import type { TradeMatchedEvent } from "../../gateway/schema/market-events.js";
import type { VenueEvent } from "../../venue/events.js";
import type { SimVenue } from "../../venue/sim-venue.js";
import { CROWD } from "../sim/actors.js";
import type { BotOrders } from "../sim/bot-orders.js";
import { atTouchTrade, type ExchangeBooks, type LevelChange } from "../sim/exchange-books.js";
import type { MarketSetup } from "../sim/markets.js";
import { BotReach } from "./bot-reach.js";
import {
  CrossedLevels,
  type CrowdLevel,
  crossing,
  levelKey,
  type MirrorCounters,
  newMirrorCounters,
  onBotTick,
  PRICE_KEYS,
} from "./crowd-levels.js";
import { QueueModel } from "./queue-model.js";
import type { QueueModelSpec } from "./queue-model-spec.js";

/**
 * The recorded market's resting liquidity inside the venue, so the bot's orders meet the real
 * book with the venue's own matching (DESIGN: one venue model). Rules, per level change of the
 * exchange's book (ExchangeBooks orders them: decreases best-first, then increases):
 * 1. The market (the CROWD account) holds one order per recorded level. An increase of Δ grows it
 *    by Δ (amend, or a new order, which may cross the bot's resting orders: the bot is filled as
 *    maker at its own price — the recorded opposite side moved through its quote).
 * 2. A decrease of Δ shrinks it by Δ (not below 0). Liquidity the bot took stays taken until the
 *    level empties (no double fills), through a snapshot too: a snapshot acts by its level changes,
 *    as a delta with the same changes would (a recording's snapshot may be a rotation's, the book
 *    the deltas already gave: re-listing there would make fills depend on how often it rotated).
 * 3. Queue position (QueueModel, chosen by config): a bot order joins behind the recorded size at
 *    its price. Trades consume the queue from the front: inferred ones (a decrease of the level
 *    while it was its side's best, not in a snapshot) or the recording's trade prints (`onTrade`),
 *    per the model's `trades` setting. What a trade gives the bot's orders (the model walks them in the venue's
 *    priority, the trade's volume used up as it goes) is taken: the market sends an IOC of that
 *    size through the level (its own orders at that price and better stepped aside first), which
 *    fills the same orders in the same price-time order, as a real aggressor would. Other decreases are cancels: they only shorten the queue
 *    ahead, by the share the model attributes to the front.
 * 4. The bot's own aggressive orders match the mirrored levels at their prices (taker fills).
 * 5. A level enters the venue only once a bot order could meet it — an ask at or below one of the
 *    bot's resting bids, a bid at or above one of its resting asks, or any level a bot order about
 *    to be placed would cross (`beforeBotPlace`, at exchange time, before the matcher sees it) —
 *    and stays until it empties. Until then it is only the exchange's recorded book: no venue order,
 *    no amend per level change. Nothing else in the venue meets the market's liquidity (its own
 *    aggressors step aside from it, rule 3), so fills are the same as with every level mirrored:
 *    a level that never met the bot holds exactly the recorded size, which is what it enters with.
 *    Why: most level changes are away from the bot's quotes, and a venue amend costs ~3 µs of
 *    bookkeeping; mirroring every one was a quarter of a replay's time.
 * 6. A crossed recorded book (an aggressor's rest shown a frame before the levels it traded shrink,
 *    a taker's order shown before its fills, a stale level): a level that grows outside the venue
 *    while the market's live liquidity crosses it is held out, at its size, until nothing live
 *    crosses it; then it enters as rule 1 says. The level that was there first stays live. In the
 *    venue it would meet the market's own orders first, which self-trade prevention cancels whole,
 *    then fill the bot ahead of its queue. Nor is it a trade for the queue model: the model hears
 *    of that trade from its own source (the print, or the decrease at the touch) — twice otherwise.
 * Orders of CROWD are transient in the venue: memory does not grow with the recording.
 */
export class CrowdMirror {
  readonly counters: MirrorCounters = newMirrorCounters();
  readonly queue: QueueModel;
  readonly #venue: SimVenue;
  readonly #books: ExchangeBooks;
  readonly #tokens: Map<string, { marketId: string; outcome: string }>;
  readonly #levels = new Map<number, CrowdLevel>();
  readonly #crossed = new CrossedLevels(
    (tokenId, side, price) => this.#key(tokenId, side, price),
    // An off-tick recorded level never enters the venue (the venue refuses it): it crosses nothing.
    (key, l, tokenId) =>
      l.price % (this.#tick[this.#tags.get(tokenId) ?? -1] ?? 1) !== 0
        ? 0n
        : (this.#levels.get(key)?.remaining ?? l.size),
  );
  readonly #keyOf = new Map<string, number>();
  readonly #tags: ReadonlyMap<string, number>;
  readonly #tokenOf = new Map<string, string>();
  readonly #tokenAt: readonly string[];
  readonly #reach: BotReach;
  readonly #tick: readonly number[];
  readonly #all: boolean;

  /**
   * `options.everyLevel`: every level in the venue as soon as it is recorded (rule 5 off) — slower;
   * the reference the tests hold the lazy mirror to (same fills).
   */
  constructor(
    venue: SimVenue,
    books: ExchangeBooks,
    markets: MarketSetup,
    bot: BotOrders,
    queueModel?: QueueModelSpec,
    options: { readonly everyLevel?: boolean } = {},
  ) {
    this.queue = new QueueModel(queueModel, venue); // at the venue's time: it pairs prints with changes
    this.#all = options.everyLevel === true;
    this.#venue = venue;
    this.#books = books;
    this.#tokens = new Map(
      markets.tokens.map((t) => [t.tokenId, { marketId: t.marketId, outcome: t.outcome }]),
    );
    this.#tags = new Map(markets.tokens.map((t, i) => [t.tokenId, i]));
    for (const t of markets.tokens) this.#tokenOf.set(`${t.marketId}|${t.outcome}`, t.tokenId);
    this.#tokenAt = markets.tokens.map((t) => t.tokenId);
    this.#reach = new BotReach(this.#tokenAt, bot);
    this.#tick = markets.tokens.map((t) => t.tickMicro);
    bot.onJoin((o) => {
      const side = o.side === "buy" ? "bid" : "ask";
      const ahead = books.book(o.tokenId).depthAt(side, Number(o.price));
      this.queue.join(o.orderId, o.tokenId, o.side, o.price, ahead, o);
    });
    bot.onLeave((o) => this.queue.leave(o.orderId));
  }

  /**
   * A bot order is about to reach the venue's matcher (SimSession.beforeBotPlace, at exchange
   * time): every recorded level it would cross enters the venue first, so it meets them as taker;
   * so does the level at its own price on its own side, so that the market's size there stays
   * ahead of it in the venue's time priority (the order joins behind the recorded size).
   */
  beforeBotPlace(marketId: string, outcome: string, side: Side, price: bigint): void {
    const tokenId = this.#tokenOf.get(`${marketId}|${outcome}`);
    if (tokenId === undefined) return;
    const tick = this.#tick[this.#tags.get(tokenId) as number] as number;
    const book = this.#books.book(tokenId);
    const p = Number(price);
    const own = book.depthAt(side === "buy" ? "bid" : "ask", p);
    if (own > 0n && p % tick === 0) this.#enter(this.#key(tokenId, side, p), tokenId, side, p, own);
    const other: Side = side === "buy" ? "sell" : "buy";
    for (const l of crossing(book, side, p)) {
      if (l.price % tick !== 0) continue;
      this.#enter(this.#key(tokenId, other, l.price), tokenId, other, l.price, l.size);
    }
  }

  /** A level of the exchange's book changed (SimSession.levelChanged). */
  onLevel(c: LevelChange): void {
    const tag = this.#tags.get(c.tokenId);
    if (tag === undefined) return;
    const side: Side = c.side === "bid" ? "buy" : "sell";
    if (c.price % (this.#tick[tag] as number) !== 0) {
      // Off the configured tick: the venue refuses such an order, so the level never trades.
      // Counted as the venue's refusal, once each time the level appears. A decrease there may
      // still be a trade at the touch, which went through the bot's better orders first.
      if (c.before === 0n) this.#reject("invalid_amounts");
      if (c.after < c.before) {
        const through = this.queue.decrease(c.tokenId, side, c.price, c.before, c.after, atTouchTrade(c));
        if (through > 0n) this.#inferred(this.#take(c.tokenId, side, BigInt(c.price), through));
        this.#uncross(c.tokenId, side, c.price);
      }
      return;
    }
    const price = c.price;
    const key = levelKey(tag, side, price);
    const level = this.#levels.get(key);
    // What the venue holds (or would hold) for the market at this price: rules 1–2, and rule 5's
    // "a level not followed holds the recorded size".
    const have = level === undefined ? c.before : level.remaining;
    // Rule 6: a level outside the venue that grows while the market's live liquidity crosses it is
    // held; a held one is judged again at each of its changes (the bot may have taken what crossed).
    if (level?.orderId === undefined && (c.after > c.before || this.#crossed.has(key))) {
      const crosses = this.#crossed.crosses(this.#books.book(c.tokenId), c.tokenId, side, price);
      if (crosses && !this.#crossed.has(key)) this.counters.heldCrossed++;
      this.#crossed.set(key, crosses);
    }
    if (c.after > c.before) {
      this.#settle(key, level, c.tokenId, side, price, have + (c.after - c.before), c.after);
      this.queue.increase(c.tokenId, side, c.price);
      return;
    }
    const delta = c.before - c.after;
    const through = this.queue.decrease(c.tokenId, side, c.price, c.before, c.after, atTouchTrade(c));
    const left = have <= delta ? 0n : have - delta;
    if (through > 0n) {
      if (level?.orderId !== undefined) this.#settle(key, level, c.tokenId, side, price, 0n, c.before);
      this.#inferred(this.#take(c.tokenId, side, BigInt(price), through));
    }
    this.#settle(key, this.#levels.get(key), c.tokenId, side, price, left, c.after);
    this.#uncross(c.tokenId, side, price);
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
      if (level.remaining <= 0n) this.#leaveVenue(key, level, e.orderId);
    } else if ((e.type === "order_cancelled" || e.type === "order_expired") && e.order.userWallet === CROWD) {
      const key = this.#keyOf.get(e.order.id);
      const level = key === undefined ? undefined : this.#levels.get(key);
      if (key !== undefined && level !== undefined) this.#leaveVenue(key, level, e.order.id);
    }
  }

  /**
   * The market's size at a price as the venue would match it (tests): its order there, or the
   * recorded size for a level not in the venue yet (rule 5: it enters with exactly that).
   */
  crowdSize(tokenId: string, side: Side, price: bigint): bigint {
    const level = this.#levels.get(this.#key(tokenId, side, price));
    if (level !== undefined) return level.remaining;
    return this.#books.book(tokenId).depthAt(side === "buy" ? "bid" : "ask", Number(price));
  }

  /** Whether the market's level is an order in the venue now (tests: rule 5). */
  inVenue(tokenId: string, side: Side, price: bigint): boolean {
    return this.#levels.get(this.#key(tokenId, side, price))?.orderId !== undefined;
  }

  // Rule 5: a level of `side` at `price` could meet a resting bot order of the other side.
  #meets(tokenId: string, side: Side, price: number): boolean {
    return this.#all || this.#reach.meets(tokenId, side, price);
  }

  // Puts `quantity` of the market's level in the venue (`recorded`: the level's recorded size).
  #place(key: number, tokenId: string, side: Side, price: number, quantity: bigint, recorded: bigint): void {
    const t = this.#tokens.get(tokenId) as { marketId: string; outcome: string };
    const order = { wallet: CROWD, ...t, side, price: BigInt(price), quantity, timeInForce: "gtc" } as const;
    const r = this.#venue.place(order);
    if (r.status === "REJECTED") {
      // Never in the venue: tried again, and counted again, when a bot order could meet it. It
      // keeps the size it should hold — a smaller one than recorded is liquidity the bot took
      // (rule 2), which a refusal (the market paused) must not give back.
      this.#follow(key, quantity, recorded);
      this.#reject(r.code ?? "matcher_error");
      return;
    }
    this.counters.placed++;
    if (r.remainingQty === 0n) {
      this.#follow(key, r.remainingQty, recorded);
      return;
    }
    this.#levels.set(key, { orderId: r.orderId, remaining: r.remainingQty });
    this.#keyOf.set(r.orderId, key);
  }

  // The market's level should now hold `remaining` (`recorded`: its recorded size): amend, cancel
  // or place its venue order — or, while no bot order could meet it, only note the size (rule 5).
  #settle(
    key: number,
    level: CrowdLevel | undefined,
    tokenId: string,
    side: Side,
    price: number,
    remaining: bigint,
    recorded: bigint,
  ): void {
    if (level?.orderId === undefined) {
      if (remaining === 0n) this.#crossed.set(key, false); // emptied: its next increase is judged afresh
      if (remaining > 0n && !this.#crossed.has(key) && this.#meets(tokenId, side, price)) {
        this.#place(key, tokenId, side, price, remaining, recorded);
      } else this.#follow(key, remaining, recorded);
      return;
    }
    if (remaining === level.remaining) return;
    if (remaining === 0n) {
      const orderId = level.orderId;
      this.#keyOf.delete(orderId);
      this.#follow(key, 0n, recorded);
      this.#venue.cancel(CROWD, orderId);
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

  // The level enters the venue now unless it is there already (`recorded`: its recorded size).
  #enter(key: number, tokenId: string, side: Side, price: number, recorded: bigint): void {
    // Rule 6, judged again now that a bot order could meet it: what crossed it may be gone (the bot
    // took it, the venue cancelled it) with no change of the recording to say so.
    if (this.#crossed.has(key)) {
      if (this.#crossed.crosses(this.#books.book(tokenId), tokenId, side, price)) return;
      this.#crossed.set(key, false);
    }
    const level = this.#levels.get(key);
    if (level === undefined) this.#place(key, tokenId, side, price, recorded, recorded);
    else if (level.orderId === undefined && level.remaining > 0n) {
      this.#place(key, tokenId, side, price, level.remaining, recorded);
    }
  }

  // Rule 6: held levels of the other side that the shrunk level of `side` at `price` crossed, and
  // nothing live crosses now, enter the venue (once a bot order could meet them).
  #uncross(tokenId: string, side: Side, price: number): void {
    if (!this.#crossed.any) return; // every decrease comes here: held levels are rare
    const other: Side = side === "buy" ? "sell" : "buy";
    for (const l of this.#crossed.released(this.#books.book(tokenId), tokenId, side, price)) {
      const key = this.#key(tokenId, other, l.price);
      const have = this.#levels.get(key)?.remaining ?? l.size;
      if (have > 0n && this.#meets(tokenId, other, l.price))
        this.#place(key, tokenId, other, l.price, have, l.size);
    }
  }

  // A level outside the venue: nothing to note while it holds the recorded size; otherwise its
  // smaller size (liquidity the bot took stays taken until the level empties: rule 2).
  #follow(key: number, remaining: bigint, recorded: bigint): void {
    if (remaining === recorded) this.#levels.delete(key);
    else this.#levels.set(key, { orderId: undefined, remaining });
  }

  // The level's venue order was filled up or cancelled by the venue: the level holds nothing until
  // it grows again or empties in the recording.
  #leaveVenue(key: number, level: CrowdLevel, orderId: string): void {
    this.#keyOf.delete(orderId);
    level.orderId = undefined;
    level.remaining = 0n;
    const tokenId = this.#tokenAt[Math.floor(key / PRICE_KEYS / 2)] as string;
    const side = Math.floor(key / PRICE_KEYS) % 2 === 0 ? "bid" : "ask";
    if (this.#books.book(tokenId).depthAt(side, key % PRICE_KEYS) === 0n) this.#levels.delete(key);
  }

  // An aggressor of the market: its IOC on the other side, through the bot's orders at `price`
  // and better (onBotTick). Returns what it filled (undefined: nothing to fill).
  #take(tokenId: string, side: Side, price: bigint, quantity: bigint): bigint | undefined {
    const at = onBotTick(side, price, BigInt(this.#tick[this.#tags.get(tokenId) as number] as number));
    const t = this.#tokens.get(tokenId) as { marketId: string; outcome: string };
    const other: Side = side === "buy" ? "sell" : "buy";
    const r = this.#venue.place({
      wallet: CROWD,
      ...t,
      side: other,
      price: at,
      quantity,
      timeInForce: "ioc",
    });
    if (r.status !== "REJECTED") return r.filledQty;
    this.#reject(r.code ?? "matcher_error");
    return undefined;
  }

  // Counts an inferred trade that filled (`filled` from #take).
  #inferred(filled: bigint | undefined): void {
    if (filled === undefined) return;
    this.counters.inferredTrades++;
    this.counters.inferredQty += filled;
  }

  // A print went past a bot order's place: the market's orders at the print's price and better
  // step aside (an IOC of the market must not meet its own liquidity), the IOC fills the bot in
  // price-time order, and the market's orders come back as the recording shows them.
  #takeThrough(tokenId: string, side: Side, price: number, quantity: bigint): void {
    const levels = this.#books.book(tokenId).side(side === "buy" ? "bid" : "ask");
    const aside: { key: number; price: number; remaining: bigint; recorded: bigint }[] = [];
    for (let i = 0; ; i++) {
      const l = levels.at(i);
      if (l === undefined || (side === "buy" ? l.price < price : l.price > price)) break;
      const key = this.#key(tokenId, side, l.price);
      const level = this.#levels.get(key);
      if (level?.orderId === undefined) continue;
      aside.push({ key, price: l.price, remaining: level.remaining, recorded: l.size });
      this.#settle(key, level, tokenId, side, l.price, 0n, l.size);
    }
    const filled = this.#take(tokenId, side, BigInt(price), quantity);
    if (filled !== undefined) {
      this.counters.printTrades++;
      this.counters.printQty += filled;
    }
    for (const a of aside) this.#place(a.key, tokenId, side, a.price, a.remaining, a.recorded);
  }

  // A level's key (levelKey).
  #key(tokenId: string, side: Side, price: bigint | number): number {
    return levelKey(this.#tags.get(tokenId) ?? -1, side, Number(price));
  }

  #reject(code: string): void {
    this.counters.rejected.set(code, (this.counters.rejected.get(code) ?? 0) + 1);
  }
}
