import type { Address, Side } from "../../core/types.js";
import type { SimVenue } from "../../venue/sim-venue.js";
import { levelLayout } from "./layout.js";

/** One outcome token of a market and its fair value (micro-units). */
export interface TokenFair {
  readonly tokenId: string;
  readonly outcome: string;
  readonly fair: bigint;
}

/** The liquidity parameters of a scenario's flow section, sizes in micro-units. */
export interface LiquidityParams {
  readonly levels: number;
  readonly spreadTicks: number;
  readonly levelSize: bigint;
}

/** Running counts of the flow's maker operations. */
export interface MakerCounts {
  placed: number;
  cancelled: number;
  rejected: number;
}

interface Wanted {
  readonly tokenId: string;
  readonly outcome: string;
  readonly side: Side;
  readonly price: bigint;
}

/**
 * Brings the flow wallet's resting orders on one market in line with the layout around each
 * token's fair value, through the venue like any trader: an open order on a wanted (token, side,
 * price) is kept, whatever is left of it, so a level takers have partly eaten keeps its size and
 * its queue position (other traders queued behind it at that price get filled once it is gone);
 * every other order of the wallet on that market (a level fair value moved away from, a
 * duplicate) is cancelled, and wanted levels with no order (new ones, or ones eaten whole) are
 * placed as GTC limits of `levelSize`. Cancels go first so a new level never meets a stale one of
 * the same wallet (which self-trade prevention would cancel). When the layout has not changed and
 * no level was eaten whole, nothing is sent.
 */
export function relayMarket(
  venue: SimVenue,
  wallet: Address,
  marketId: string,
  tick: bigint,
  tokens: readonly TokenFair[],
  p: LiquidityParams,
  counts: MakerCounts,
): void {
  const wanted = new Map<string, Wanted>();
  for (const t of tokens) {
    const layout = levelLayout(t.fair, tick, p.levels, p.spreadTicks);
    for (const price of layout.bids) wanted.set(keyOf(t.tokenId, "buy", price), { ...t, side: "buy", price });
    for (const price of layout.asks)
      wanted.set(keyOf(t.tokenId, "sell", price), { ...t, side: "sell", price });
  }
  const kept = new Set<string>();
  const stale: string[] = [];
  for (const o of venue.openOrders(wallet, marketId)) {
    const key = keyOf(o.tokenId, o.side, o.price);
    if (wanted.has(key) && !kept.has(key)) kept.add(key);
    else stale.push(o.id);
  }
  for (const id of stale) if (venue.cancel(wallet, id).ok) counts.cancelled++;
  for (const [key, w] of wanted) {
    if (kept.has(key)) continue;
    const r = venue.place({
      wallet,
      marketId,
      outcome: w.outcome,
      side: w.side,
      price: w.price,
      quantity: p.levelSize,
      type: "limit",
      timeInForce: "gtc",
    });
    if (r.status === "REJECTED") counts.rejected++;
    else counts.placed++;
  }
}

function keyOf(tokenId: string, side: Side, price: bigint): string {
  return `${tokenId}|${side}|${price}`;
}
