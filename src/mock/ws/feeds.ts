import type { VenueEvent } from "../../venue/events.js";
import type { MockContext } from "../context.js";
import { BookFeed } from "./book-feed.js";
import type { Hub } from "./hub.js";
import { LifecycleFeed } from "./lifecycle-feed.js";
import { OhlcFeed } from "./ohlc-feed.js";
import type { Subscription } from "./subscriptions.js";
import { TradeFeed } from "./trade-feed.js";
import { UserFeed } from "./user-feed.js";
import { VaultFeed } from "./vault-feed.js";

/**
 * Every channel publisher, fed by one venue listener. Venue events arrive in commit order, so
 * each token's book_delta frames leave in seq order and a fill's notices follow its trade print.
 */
export class Feeds {
  readonly book: BookFeed;
  readonly lifecycle: LifecycleFeed;
  readonly #trades: TradeFeed;
  readonly #ohlc: OhlcFeed;
  readonly #user: UserFeed;
  readonly #vaults: VaultFeed;

  constructor(ctx: MockContext, hub: Hub) {
    this.book = new BookFeed(ctx, hub);
    this.lifecycle = new LifecycleFeed(ctx, hub);
    this.#vaults = new VaultFeed(ctx, hub);
    this.#trades = new TradeFeed(ctx, hub, this.#vaults);
    this.#ohlc = new OhlcFeed(ctx, hub);
    this.#user = new UserFeed(hub);
  }

  /** The venue listener. */
  onVenueEvent(e: VenueEvent): void {
    // A placement starts with order_placed; an operation that filled ends with its book diff.
    if (e.type === "order_placed" || e.type === "book_changes") this.#vaults.endOperation();
    switch (e.type) {
      case "book_changes":
        this.book.onBookChanges(e);
        break;
      case "trade":
        this.#trades.onTrade(e);
        this.#ohlc.onTrade(e);
        break;
      case "fill":
        this.#user.onFill(e);
        this.#vaults.onFill(e);
        break;
      case "order_placed":
      case "order_cancelled":
      case "order_expired":
        this.#user.onOrder(e);
        break;
      case "market_status":
        this.lifecycle.onMarketStatus(e);
        break;
    }
  }

  /** What a new subscription (or ids added to one) gets at once: book snapshots, the platform status. */
  afterSubscribe(sub: Subscription, ids: readonly string[]): void {
    if (sub.channel === "token_book") {
      for (const tokenId of ids) this.book.sendSnapshot(sub, tokenId);
      this.book.ensureTimer();
    } else if (sub.channel === "system") {
      this.lifecycle.sendPlatformStatus(sub);
    }
  }

  dispose(): void {
    this.book.dispose();
    this.#trades.dispose();
    this.#ohlc.dispose();
  }
}
