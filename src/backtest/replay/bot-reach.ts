import type { Side } from "../../core/types.js";
import type { BotOrders } from "../sim/bot-orders.js";

const NO_BID = -1;
const NO_ASK = Number.MAX_SAFE_INTEGER;

/**
 * How far the bot's resting orders reach into the market, per token: its highest resting bid and
 * lowest resting ask (micro-units), kept up to date from BotOrders' joins and leaves. A level of
 * the other side at or through them could trade with the bot (CrowdMirror rule 5). The bot rests a
 * few orders per token, so a change rescans them.
 */
export class BotReach {
  readonly #tags: ReadonlyMap<string, number>;
  readonly #bid: number[];
  readonly #ask: number[];
  readonly #bot: BotOrders;

  constructor(tokenIds: readonly string[], bot: BotOrders) {
    this.#tags = new Map(tokenIds.map((t, i) => [t, i]));
    this.#bid = tokenIds.map(() => NO_BID);
    this.#ask = tokenIds.map(() => NO_ASK);
    this.#bot = bot;
    bot.onJoin((o) => this.#changed(o.tokenId));
    bot.onLeave((o) => this.#changed(o.tokenId));
  }

  /** Whether a resting level of `side` at `price` (micro-units) could meet a resting bot order. */
  meets(tokenId: string, side: Side, price: number): boolean {
    const tag = this.#tags.get(tokenId);
    if (tag === undefined) return false;
    return side === "sell" ? price <= (this.#bid[tag] as number) : price >= (this.#ask[tag] as number);
  }

  #changed(tokenId: string): void {
    const tag = this.#tags.get(tokenId);
    if (tag === undefined) return;
    let bid = NO_BID;
    let ask = NO_ASK;
    for (const o of this.#bot.all()) {
      if (o.tokenId !== tokenId) continue;
      const p = Number(o.price);
      if (o.side === "buy") bid = Math.max(bid, p);
      else ask = Math.min(ask, p);
    }
    this.#bid[tag] = bid;
    this.#ask[tag] = ask;
  }
}
