import type { PlaceOrderRequest } from "../../../../src/core/types.js";
import { ExchangeError } from "../../../../src/exchange/exchange-error.js";
import type { PlaceOrderOutcome } from "../../../../src/exchange/place-outcome.js";
import { CROWD, type Harness, type HarnessOptions } from "./harness.js";
import { testSign } from "./sign.js";

/** The exchange's answer to a placement whose signature does not recover (the spec: usually its fee). */
export function badSignature(): PlaceOrderOutcome {
  const error = new ExchangeError({
    code: "bad_signature",
    message: "EIP-712 recovery failed",
    outcome: "rejected",
    endpoint: "POST /api/orders/place",
    httpStatus: 400,
  });
  return { kind: "rejected", code: "bad_signature", retryable: false, error };
}

/**
 * A harness `sign` option that notes, per clientOrderId, the fee each order was signed with (the
 * market the engine passes, null without one), so a fake exchange can refuse the wrong ones.
 */
export function feeNotingSigner(signed: Map<string, number | null>): NonNullable<HarnessOptions["sign"]> {
  return (markets) => async (i, market) => {
    signed.set(i.clientOrderId, market === undefined ? null : market.feeTakerBps);
    return testSign(i, markets);
  };
}

/**
 * Makes `h`'s exchange refuse (`bad_signature`) each placement not signed with `fee()`, as the spec's
 * exchange does when feeRateBps is not the market's feeTakerBps now; `signed` is feeNotingSigner's map.
 */
export function refuseUnlessSignedWith(
  h: Harness,
  signed: ReadonlyMap<string, number | null>,
  fee: () => number | null,
): void {
  const place = h.exchange.place.bind(h.exchange);
  h.exchange.place = async (req: PlaceOrderRequest): Promise<PlaceOrderOutcome> =>
    signed.get(req.clientOrderId ?? "") === fee() ? place(req) : badSignature();
}

/** The crowd pulls its best bid on the token: its book moves, the engine requotes. */
export function pullBestBid(h: Harness, tokenId: string): void {
  const best = h.venue
    .openOrders(CROWD)
    .filter((o) => o.tokenId === tokenId && o.side === "buy")
    .sort((x, y) => Number(y.price - x.price))[0];
  if (best !== undefined) h.venue.cancel(CROWD, best.id);
}
