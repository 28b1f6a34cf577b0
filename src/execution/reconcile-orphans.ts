import { toWei } from "../core/wei.js";
import type { Order } from "../exchange/types.js";
import type { CancelIntent, CancelReason } from "./intents.js";
import type { TrackedOrder } from "./order-state.js";
import type { OrderStore } from "./order-store.js";
import { remoteFilled } from "./reconcile-open-orders.js";

/** Maps an exchange order (marketId + outcome) to its token id; undefined when the market is not known. */
export type TokenOfOrder = (order: Order) => string | undefined;

const OUR_ID = /^mm-[a-z0-9]{1,16}-[0-9a-f]{10}-([bs])(\d+)-\d+$/;

/**
 * Cancel intents for orphans (open on the exchange, not ours to keep): the default at start-up and
 * whenever one is found. The clientOrderId is the exchange's, or `orphan:<orderId>` when it had none;
 * the engine does not report these cancels' answers to the store (the orders are not tracked).
 */
export function orphanCancels(
  orphans: readonly Order[],
  tokenOf: TokenOfOrder,
  reason: CancelReason = "orphan",
): CancelIntent[] {
  return orphans.map((o) => ({
    kind: "cancel",
    tokenId: tokenOf(o) ?? "",
    marketId: o.marketId,
    clientOrderId: o.clientOrderId ?? `orphan:${o.id}`,
    orderId: o.id,
    reason,
  }));
}

/**
 * Adopts orphans into the store as `open` orders (the `adopt` start-up option), so the order manager
 * diffs against them like its own. An order whose clientOrderId has mm's format keeps the side and
 * level it encodes; another is given the lowest level not yet used on its side of the token. Orders
 * whose token is unknown, or whose price or size are not micro-exact, are not adopted.
 * @returns the adopted orders and the orphans left over (to cancel).
 */
export function adoptOrphans(
  store: OrderStore,
  orphans: readonly Order[],
  tokenOf: TokenOfOrder,
  now: number,
): { adopted: TrackedOrder[]; rejected: Order[] } {
  const adopted: TrackedOrder[] = [];
  const rejected: Order[] = [];
  for (const r of orphans) {
    const tokenId = tokenOf(r);
    const amounts = amountsOf(r);
    if (tokenId === undefined || amounts === undefined) {
      rejected.push(r);
      continue;
    }
    const parsed = r.clientOrderId === undefined ? undefined : OUR_ID.exec(r.clientOrderId);
    const level =
      parsed?.[1] === (r.side === "buy" ? "b" : "s") ? Number(parsed[2]) : freeLevel(store, tokenId, r.side);
    const o = store.adopt(
      {
        clientOrderId: r.clientOrderId ?? `adopted:${r.id}`,
        tokenId,
        marketId: r.marketId,
        side: r.side,
        level,
        priceMicro: amounts.priceMicro,
        sizeMicro: amounts.sizeMicro,
        orderId: r.id,
        filledMicro: remoteFilled(r),
      },
      now,
    );
    if (o === undefined) rejected.push(r);
    else adopted.push(o);
  }
  return { adopted, rejected };
}

function freeLevel(store: OrderStore, tokenId: string, side: string): number {
  const used = new Set(
    store
      .live(tokenId)
      .filter((o) => o.side === side)
      .map((o) => o.level),
  );
  let level = 0;
  while (used.has(level)) level++;
  return level;
}

function amountsOf(r: Order): { priceMicro: number; sizeMicro: bigint } | undefined {
  try {
    return { priceMicro: Number(toWei(r.price, "price")), sizeMicro: toWei(r.quantity, "quantity") };
  } catch {
    return undefined;
  }
}
