import type { Side } from "../../core/types.js";
import type { FillEvent, VenueEvent } from "../../venue/events.js";
import type { FeeAmount } from "../../venue/types.js";
import { wireUserFill } from "../../venue/wire.js";
import { BOT } from "./actors.js";

/** One fill of the bot as the venue settled it: what the report accounts from, exactly. */
export interface BacktestFill {
  readonly tsMs: number;
  readonly tokenId: string;
  readonly tradeId: string;
  readonly orderId: string;
  readonly clientOrderId: string | undefined;
  /** The bot's side. */
  readonly side: Side;
  readonly role: "maker" | "taker";
  /** Micro-units. */
  readonly price: bigint;
  readonly quantity: bigint;
  /** USDC micro-units that changed hands (the buyer's rounded-up payment, what the seller got). */
  readonly notional: bigint;
  /** The bot's fee in this fill (BUY fees in shares, SELL fees in USDC). */
  readonly fee: FeeAmount;
}

/** The user_fill frame the exchange would push to the bot for a fill. */
export interface UserFillFrame {
  readonly type: "user_fill";
  readonly sid: number;
  readonly channel: "user_fills";
  readonly data: Record<string, unknown>;
}

/**
 * Picks the bot's fills out of the venue's event stream. A trade event (which carries the exact
 * notional) precedes its two fill events; the bot's fill event then yields a BacktestFill and the
 * user_fill frame the engine receives, a feed latency later, through the gateway's parser.
 */
export class BotFills {
  readonly #notional = new Map<string, bigint>();
  readonly #onFill: (fill: BacktestFill, frame: UserFillFrame) => void;

  constructor(onFill: (fill: BacktestFill, frame: UserFillFrame) => void) {
    this.#onFill = onFill;
  }

  /** Feed every venue event here, in order. */
  onVenueEvent(e: VenueEvent): void {
    if (e.type === "trade") {
      const t = e.trade;
      if (t.makerWallet === BOT || t.takerWallet === BOT) this.#notional.set(t.id, t.notional);
    } else if (e.type === "fill" && e.walletAddress === BOT) {
      this.#fill(e);
    }
  }

  #fill(e: FillEvent): void {
    const notional = this.#notional.get(e.tradeId) ?? 0n;
    this.#notional.delete(e.tradeId);
    const fill: BacktestFill = {
      tsMs: e.tsMs,
      tokenId: e.tokenId,
      tradeId: e.tradeId,
      orderId: e.orderId,
      clientOrderId: e.clientOrderId,
      side: e.side,
      role: e.role,
      price: e.price,
      quantity: e.quantity,
      notional,
      fee: e.fee,
    };
    this.#onFill(fill, { type: "user_fill", sid: 1, channel: "user_fills", data: wireUserFill(e) });
  }
}
