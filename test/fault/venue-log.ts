import type { Address } from "../../src/core/types.js";
import type { MockExchange } from "../../src/mock/mock-exchange.js";

/** One order of the wallet as the mock venue saw it live. */
export interface VenueOrder {
  readonly orderId: string;
  readonly clientOrderId: string | undefined;
  readonly tokenId: string;
  readonly marketId: string;
  readonly side: "buy" | "sell";
  /** Limit price, micro-USDC. */
  readonly price: bigint;
  /** Date.now() (the mock's wall clock) when it was accepted. */
  readonly placedAt: number;
  /** When it stopped resting (cancelled, expired, filled); undefined while it rests. */
  endedAt: number | undefined;
  remaining: bigint;
}

/** The mock venue's own record of every order of one wallet, with when it rested. */
export interface VenueLog {
  readonly orders: ReadonlyMap<string, VenueOrder>;
  /** Open orders of the wallet right now (the venue's view). */
  open(): VenueOrder[];
  stop(): void;
}

/**
 * Subscribes to the mock venue's events for `wallet`: every accepted order with its resting interval,
 * so the invariants can ask "was this order live while its book was stale?" and "did any
 * clientOrderId get two orders?" from the exchange's side, whatever the bot believed.
 */
export function recordVenue(mock: MockExchange, wallet: Address): VenueLog {
  const orders = new Map<string, VenueOrder>();
  const end = (id: string, ts: number) => {
    const o = orders.get(id);
    if (o !== undefined && o.endedAt === undefined) o.endedAt = ts;
  };
  const off = mock.context.venue.subscribe((e) => {
    if (e.type === "order_placed" && e.order.userWallet === wallet) {
      const o = e.order;
      const resting = o.status === "OPEN" && o.remainingQty > 0n;
      orders.set(o.id, {
        orderId: o.id,
        clientOrderId: o.clientOrderId,
        tokenId: o.tokenId,
        marketId: o.marketId,
        side: o.side,
        price: o.price,
        placedAt: e.tsMs,
        endedAt: resting ? undefined : e.tsMs,
        remaining: o.remainingQty,
      });
    } else if (
      (e.type === "order_cancelled" || e.type === "order_expired") &&
      e.order.userWallet === wallet
    ) {
      end(e.order.id, e.tsMs);
    } else if (e.type === "fill" && e.walletAddress === wallet) {
      const o = orders.get(e.orderId);
      if (o === undefined) return;
      o.remaining -= e.quantity;
      if (o.remaining <= 0n) end(o.orderId, e.tsMs);
    }
  });
  return {
    orders,
    open: () =>
      mock.context.venue.openOrders(wallet).map((v) => {
        const o = orders.get(v.id);
        return (
          o ?? {
            orderId: v.id,
            clientOrderId: v.clientOrderId,
            tokenId: v.tokenId,
            marketId: v.marketId,
            side: v.side,
            price: v.price,
            placedAt: v.createdAt,
            endedAt: undefined,
            remaining: v.remainingQty,
          }
        );
      }),
    stop: off,
  };
}
