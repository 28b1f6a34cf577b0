import type { Channel } from "../gateway/types.js";

/** What a refused subscription of each channel costs while it lasts (for the error log). */
export const LOST: Readonly<Record<Channel, string>> = {
  token_book: "these books are not quoted while they are not subscribed",
  condition_lifecycle:
    "pauses and resolutions of these markets are not pushed (refused placements still reveal them)",
  system: "platform freezes are not pushed (refused placements still reveal them)",
  user_fills: "own fills reach mm only through the periodic reconcile (one runs now)",
  user_orders: "order events are not logged",
  token_trade_matches: "trade prints are not received",
  token_trade_settlements: "settlements are not received",
  token_ohlc: "bars are not received",
  vault_positions: "vault position events are not received",
};
