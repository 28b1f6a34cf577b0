import type { Order, TradeRecord } from "../../../../src/exchange/types.js";
import type { Harness } from "./harness.js";

/**
 * The exchange's record of a 3-share bid at 0.4 of the Harness's wallet (0xb0) on its first token
 * (market m1, YES), as GET /api/orders answers it: the restart tests' order of an earlier run.
 * FILLED: filled whole; any other status: nothing filled.
 */
export function harnessBid(p: {
  id: string;
  clientOrderId: string;
  status: string;
  createdAtMs: number;
  updatedAtMs?: number;
}): Order {
  const filled = p.status === "FILLED";
  return {
    id: p.id,
    userWallet: "0xb0",
    vault: "0xb0",
    marketId: "m1",
    side: "buy",
    outcome: "YES",
    price: "0.4",
    quantity: "3",
    filledQty: filled ? "3" : "0",
    remainingQty: filled ? "0" : "3",
    expiry: 0,
    type: "limit",
    timeInForce: "gtc",
    status: p.status,
    clientOrderId: p.clientOrderId,
    createdAt: new Date(p.createdAtMs).toISOString(),
    updatedAt: new Date(p.updatedAtMs ?? p.createdAtMs).toISOString(),
  } as unknown as Order;
}

/** The trade (GET /api/me/trades) that fills such a bid whole at `atMs`; `fee` null: not charged yet. */
export function harnessBidFill(
  id: string,
  orderId: string,
  atMs: number,
  fee: string | null = null,
): TradeRecord {
  return {
    id,
    orderId,
    marketId: "m1",
    vaultAddress: "0xb0",
    fee,
    side: "buy",
    price: "0.4",
    quantity: "3",
    createdAt: new Date(atMs).toISOString(),
  } as unknown as TradeRecord;
}

/**
 * Starts the Harness quoting its first token, then has its next placement answered ambiguously (a
 * timeout with nothing reaching the venue) at a requote; returns that placement's clientOrderId.
 * `reaching`: the placement reaches the venue (its answer alone is lost), and only the promise
 * chains run after it, so no reconcile (it waits out its debounce) has looked for it yet.
 */
export async function ambiguousBid(h: Harness, opts: { reaching?: boolean } = {}): Promise<string> {
  const [yes] = h.tokens();
  h.crowdQuote(yes, "0.48", "0.52");
  await h.engine.start();
  await h.run();
  h.exchange.scriptPlace({ kind: opts.reaching === true ? "ambiguous_after" : "ambiguous_before" });
  h.crowdQuote(yes, "0.50", "0.54");
  await h.run(opts.reaching === true ? 0 : 1_000);
  const amb = h.eventsOf("place_outcome").find((e) => e.outcome === "ambiguous");
  if (amb === undefined) throw new Error("no ambiguous placement");
  return amb.intent.clientOrderId;
}
