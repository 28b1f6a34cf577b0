import type { DesiredQuote } from "../core/trading.js";

/**
 * What the order manager asks the order queue to do. The queue decides when (rate budget,
 * priority) and whether (a placement superseded before it is sent is dropped); the order manager
 * decides what.
 */
export type Intent = PlaceIntent | CancelIntent | CancelAllIntent;

export interface PlaceIntent {
  readonly kind: "place";
  readonly tokenId: string;
  readonly marketId: string;
  readonly clientOrderId: string;
  readonly quote: DesiredQuote;
  /**
   * How far the live quote (an open order) is from the desired one, in ticks (a missing live quote,
   * a queued unsent placement included, counts as the largest distance): the queue sends the most
   * urgent requotes first and sheds the calm ones.
   */
  readonly urgencyTicks: number;
}

export interface CancelIntent {
  readonly kind: "cancel";
  readonly tokenId: string;
  readonly marketId: string;
  readonly clientOrderId: string;
  /** The exchange id; undefined while the placement is still in flight. */
  readonly orderId: string | undefined;
  readonly reason: string;
}

export interface CancelAllIntent {
  readonly kind: "cancel_all";
  /** Undefined = every market of the wallet (the kill switch). */
  readonly marketId: string | undefined;
  readonly reason: string;
}
