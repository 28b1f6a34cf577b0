import type { OpenQuote } from "../../strategies/types.js";
import type { LocalOrderState } from "../core/trading.js";
import type { OrderStore } from "../execution/order-store.js";

/** What strategies see as their own quotes: resting or on their way (not those being cancelled). */
const QUOTING: ReadonlySet<LocalOrderState> = new Set(["open", "placing"]);
/**
 * What the exchange's book may show of ours: placed (the book can show an order before its answer
 * arrives), open, or being cancelled (it rests until the cancel lands).
 */
export const IN_BOOK: ReadonlySet<LocalOrderState> = new Set(["open", "placing", "cancelling"]);

/** Our orders on the token in one of `states` (default: the strategies' own open quotes). */
export function openQuotes(
  store: OrderStore,
  tokenId: string,
  states: ReadonlySet<LocalOrderState> = QUOTING,
): OpenQuote[] {
  const out: OpenQuote[] = [];
  for (const o of store.live(tokenId)) {
    if (!states.has(o.state)) continue;
    out.push({
      side: o.side,
      level: o.level,
      priceMicro: o.priceMicro,
      sizeMicro: o.sizeMicro - o.filledMicro,
    });
  }
  return out;
}
