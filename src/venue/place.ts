import type { Address } from "../core/types.js";
import { buyReservation } from "./amounts.js";
import type { BookEntry } from "./book-side.js";
import { USDC } from "./ledger.js";
import { crosses, executableQuantity, type Incoming, match } from "./matching.js";
import { type VenueOrder, viewOf } from "./order.js";
import type { OrderBook } from "./order-book.js";
import { settleFill } from "./settlement.js";
import { endOrder, type VenueState, walletKey } from "./state.js";
import type { PlacementResult, PlaceOrderInput, PlaceRejectCode, TradeRecord, VenueReject } from "./types.js";
import { type CheckedPlacement, checkPlacement } from "./validate.js";

/**
 * Places an order: deduplication by (wallet, clientOrderId), stateless checks, funds, the FOK /
 * IOC executability check, then reservation, matching and (GTC) resting.
 *
 * Every reject happens before any state changes, so a rejected placement leaves the venue as it
 * was and gets no order id. An IOC or market order that cannot fill at all, and a FOK that cannot
 * fill whole, are rejected with `matcher_error` (details.reason `no_match` / `fok_not_fillable`),
 * as the spec's placement result has no "cancelled" status. A repeat of a clientOrderId returns
 * the first placement's stored result (flagged `duplicate`), never a second order.
 */
export function placeOrder(s: VenueState, input: PlaceOrderInput, now: number): PlacementResult {
  const wallet = walletKey(input.wallet);
  const clientOrderId = input.clientOrderId === "" ? undefined : input.clientOrderId;
  if (clientOrderId !== undefined) {
    const prior = s.orders.byClientId(wallet, clientOrderId);
    if (prior !== undefined) return { ...prior, duplicate: true };
  }
  const checked = checkPlacement(input, s.markets, now);
  if ("code" in checked) return rejected(input, checked);

  const tokenId = checked.outcome.tokenId;
  const asset = input.side === "buy" ? USDC : tokenId;
  const need = input.side === "buy" ? buyReservation(0n, input.price, input.quantity) : input.quantity;
  const available = s.ledger.available(wallet, asset);
  if (available < need) {
    return rejected(input, {
      code: "insufficient_funds",
      message: `available ${input.side === "buy" ? "USDC" : "shares"} cannot cover the order`,
      details: {
        asset: input.side === "buy" ? "usdc" : tokenId,
        required: `${need}`,
        available: `${available}`,
      },
    });
  }

  const book = s.books.get(tokenId);
  if (book === undefined) throw new Error(`venue has no book for registered token ${tokenId}`);
  const incoming: Incoming = { side: input.side, price: input.price, wallet };
  if (checked.timeInForce !== "gtc") {
    const executable = executableQuantity(book, incoming, s.selfTrade, input.quantity);
    if (checked.timeInForce === "fok" && executable < input.quantity) {
      return rejected(input, {
        code: "matcher_error",
        message: "FOK order cannot be filled in full",
        details: { reason: "fok_not_fillable", executable: `${executable}` },
      });
    }
    if (executable === 0n) {
      return rejected(input, {
        code: "matcher_error",
        message: "no resting order to match with",
        details: { reason: "no_match" },
      });
    }
  }

  const order = newOrder(s, input, checked, wallet, clientOrderId, now);
  s.ledger.reserve(wallet, asset, need);
  order.reserved = need;
  s.orders.add(order);
  s.orders.markOpen(order);
  s.touched.add(tokenId);
  s.pending.push({ type: "order_placed", tsMs: now, order: viewOf(order) });

  const trades: TradeRecord[] = [];
  // Most orders rest without crossing (a market maker's quotes, the backtest's mirror of the
  // recorded book): they skip the matcher and its per-call closures.
  const best = book.oppositeOf(input.side).best();
  const remaining =
    best === undefined || !crosses(incoming, best.price)
      ? input.quantity
      : matchIncoming(s, book, order, incoming, input.quantity, checked, trades, now);

  if (remaining === 0n) {
    s.orders.markClosed(order);
  } else if (checked.timeInForce === "gtc") {
    s.resting.set(order.id, book.add(order, remaining));
    if (order.expiry !== 0) s.expiries.add(order.id, order.expiry);
  } else {
    endOrder(s, order, "CANCELLED", "unfilled_remainder", now);
  }

  const filledQty = order.filledQty;
  const result: PlacementResult = {
    orderId: order.id,
    status: remaining === 0n ? "FILLED" : filledQty > 0n ? "PARTIAL" : "OPEN",
    filledQty,
    remainingQty: remaining,
    trades,
  };
  if (clientOrderId !== undefined) s.orders.rememberClientId(wallet, clientOrderId, result);
  return result;
}

// Matches the incoming order (see match), settling each fill; returns the quantity left.
function matchIncoming(
  s: VenueState,
  book: OrderBook,
  order: VenueOrder,
  incoming: Incoming,
  quantity: bigint,
  checked: CheckedPlacement,
  trades: TradeRecord[],
  now: number,
): bigint {
  const fees = { takerBps: s.markets.takerBps(checked.market), makerBps: s.markets.makerBps(checked.market) };
  const conditionId = checked.market.spec.conditionId;
  return match(book, incoming, quantity, s.selfTrade, {
    fill: (entry: BookEntry, qty: bigint) => {
      const maker = entry.order;
      const ctx = { ledger: s.ledger, fees, tradeId: s.ids.tradeId(), conditionId, now };
      const trade = settleFill(ctx, order, maker, qty);
      trades.push(trade);
      s.trades.add(trade, maker, order);
      announceTrade(s, trade, maker, order);
      if (maker.status === "FILLED") {
        s.resting.delete(maker.id);
        s.orders.markClosed(maker);
      }
    },
    selfTrade: (entry: BookEntry) => endOrder(s, entry.order, "CANCELLED", "self_trade", now, false),
  });
}

function newOrder(
  s: VenueState,
  input: PlaceOrderInput,
  c: CheckedPlacement,
  wallet: Address,
  clientOrderId: string | undefined,
  now: number,
): VenueOrder {
  return {
    id: s.ids.orderId(),
    wallet,
    vault: walletKey(s.vaultOf(wallet)),
    marketId: c.market.spec.marketId,
    tokenId: c.outcome.tokenId,
    outcome: c.outcome.label,
    outcomeIndex: c.outcomeIndex,
    side: input.side,
    price: input.price,
    quantity: input.quantity,
    expiry: c.expiry,
    type: c.type,
    timeInForce: c.timeInForce,
    clientOrderId,
    createdAt: now,
    filledQty: 0n,
    status: "OPEN",
    updatedAt: now,
    reserved: 0n,
    notionalAcc: 0n,
    tradeIds: [],
  };
}

// The public print, then each wallet's private fill (maker first: its order rested first).
function announceTrade(s: VenueState, t: TradeRecord, maker: VenueOrder, taker: VenueOrder): void {
  const base = {
    tsMs: t.createdAt,
    tokenId: t.tokenId,
    conditionId: t.conditionId,
    outcomeIndex: t.outcomeIndex,
    tradeId: t.id,
    price: t.price,
    quantity: t.quantity,
  };
  s.pending.push({ type: "trade", ...base, side: t.takerSide, trade: t });
  for (const [o, role] of [
    [maker, "maker"],
    [taker, "taker"],
  ] as const) {
    const fill = {
      type: "fill" as const,
      ...base,
      walletAddress: o.wallet,
      side: o.side,
      orderId: o.id,
      role,
      fee: role === "maker" ? t.makerFee : t.takerFee,
    };
    s.pending.push(o.clientOrderId === undefined ? fill : { ...fill, clientOrderId: o.clientOrderId });
  }
}

function rejected(input: PlaceOrderInput, r: VenueReject<PlaceRejectCode>): PlacementResult {
  return {
    orderId: "",
    status: "REJECTED",
    filledQty: 0n,
    remainingQty: input.quantity > 0n ? input.quantity : 0n,
    trades: [],
    code: r.code,
    message: r.message,
    details: r.details,
  };
}
