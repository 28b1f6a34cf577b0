import type { OpenQuote } from "../../strategies/types.js";
import type { OrderStore } from "../execution/order-store.js";

/** Our orders resting or on their way on the token (not those being cancelled), as strategies see them. */
export function openQuotes(store: OrderStore, tokenId: string): OpenQuote[] {
  const out: OpenQuote[] = [];
  for (const o of store.live(tokenId)) {
    if (o.state !== "open" && o.state !== "placing") continue;
    out.push({
      side: o.side,
      level: o.level,
      priceMicro: o.priceMicro,
      sizeMicro: o.sizeMicro - o.filledMicro,
    });
  }
  return out;
}
