import { toWei } from "../core/wei.js";
import type { OrderFill } from "../exchange/assumptions.js";
import { ExchangeError } from "../exchange/exchange-error.js";
import type { TrackedOrder } from "./order-state.js";
import type { OrderStore } from "./order-store.js";

/** What reading the adopted orders' fills did. */
export interface AdoptedFillsReport {
  /** Orders whose fills were read and recorded. */
  readonly seeded: number;
  /** Orders whose fills could not be read (their filled quantity stays a lower bound until a reconcile). */
  readonly unread: readonly string[];
}

/**
 * Records the fills an adopted order had before this run, read from GET /api/orders/{id}/fills, so
 * that the fills still to come complete it.
 *
 * Why: an adopted order's fills from before this run never reach the fill intake (they are in the
 * inventory baseline, and the stream does not replay them). Its filled quantity was only
 * max(filledQty when listed, Σ fills seen since): each a lower bound, neither complete once fills
 * land on both sides of the adoption. So a fully filled adopted order stayed `open` with a phantom
 * remainder, its level dark and a cancel sent to nothing, until a reconcile looked it up. With every
 * fill recorded by tradeId, the stream's later fills (same tradeIds: the records' `id`, an
 * assumption) add exactly what is missing, and the completing one makes it `filled`.
 *
 * Only orders adopted with a filled quantity are read: one with none listed has had all its fills
 * since the listing, which the intake sees. An order the read cannot be made for (absent, failure,
 * an unreadable quantity) keeps the two lower bounds: never more than the truth, only slower.
 * @example const rep = await seedAdoptedFills((id) => port.orderFills(id), store, adopted, now);
 */
export async function seedAdoptedFills(
  read: (orderId: string) => Promise<OrderFill[]>,
  store: OrderStore,
  adopted: readonly TrackedOrder[],
  now: number,
): Promise<AdoptedFillsReport> {
  let seeded = 0;
  const unread: string[] = [];
  for (const o of adopted) {
    const orderId = o.orderId;
    if (orderId === undefined || o.remoteFilledMicro === 0n) continue;
    const fills = await readFills(read, orderId);
    if (fills === undefined) {
      unread.push(orderId);
      continue;
    }
    store.seedFills(orderId, fills, now);
    seeded++;
  }
  return { seeded, unread };
}

async function readFills(
  read: (orderId: string) => Promise<OrderFill[]>,
  orderId: string,
): Promise<{ tradeId: string; sizeMicro: bigint }[] | undefined> {
  let rows: OrderFill[];
  try {
    rows = await read(orderId);
  } catch (err) {
    // Any failure leaves the order as it was (a lower bound); only a programming error escapes.
    if (err instanceof ExchangeError) return undefined;
    throw err;
  }
  const out: { tradeId: string; sizeMicro: bigint }[] = [];
  for (const r of rows) {
    // A row naming another order is not one of this order's fills (the record is not shown).
    if (typeof r.orderId === "string" && r.orderId !== orderId) continue;
    try {
      out.push({ tradeId: r.id, sizeMicro: toWei(r.quantity, "quantity") });
    } catch {
      return undefined; // reported as unread: the order keeps its two lower bounds
    }
  }
  return out;
}
