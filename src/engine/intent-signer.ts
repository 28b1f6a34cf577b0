import { MmError } from "../core/errors.js";
import type { TokenMarket } from "../core/trading.js";
import type { PlaceOrderRequest } from "../core/types.js";
import { weiToString } from "../core/wei.js";
import type { PlaceIntent } from "../execution/intents.js";
import type { OrderBuilder } from "../signing/order-builder.js";
import type { OrderMarket } from "../signing/order-struct.js";
import type { SignedOrders } from "./signature-check.js";

/** Settings of the placements the engine signs. */
export interface IntentSignerOptions {
  /**
   * Unix seconds of on-chain expiry; 0 (default) = none, quotes are cancelled, not left to expire.
   * A function is called for every order (e.g. `() => Math.floor(clock.now() / 1000) + 3600` for a
   * rolling lifetime); a number is the same absolute instant for every order.
   */
  readonly expiry?: number | (() => number);
  /**
   * Keeps each order as signed, by clientOrderId, for the engine to compare a `bad_signature`
   * reply with (pass the same object as EngineDeps.signedOrders).
   */
  readonly signed?: SignedOrders;
}

/**
 * The engine's `sign` dependency over an OrderBuilder: each placement intent becomes a GTC limit order
 * of its token at the intent's price and size, signed with the clientOrderId the order manager minted.
 * Market parameters (outcome label, fee, neg-risk, tick) come from the engine's TokenMarkets; the
 * fee from the `market` the engine passes with the intent when it does (the engine re-reads a
 * market's feeTakerBps after a `bad_signature`: fee-recheck.ts), else from `markets`.
 * Throws MmError `unknown_token` for a token not in `markets` (the queue reports it as a definite
 * reject `sign_failed`, nothing is sent).
 * @example
 * const sign = intentSigner(new OrderBuilder({ settings, domain, signer }), markets);
 * createEngine({ ..., sign });
 */
export function intentSigner(
  builder: Pick<OrderBuilder, "build">,
  markets: readonly TokenMarket[],
  opts: IntentSignerOptions = {},
): (intent: PlaceIntent, current?: Pick<TokenMarket, "feeTakerBps">) => Promise<PlaceOrderRequest> {
  const byToken = new Map<string, OrderMarket>();
  for (const m of markets) {
    byToken.set(m.tokenId, {
      marketId: m.marketId,
      tokenId: m.tokenId,
      outcome: m.outcome,
      feeTakerBps: m.feeTakerBps,
      negRisk: m.negRisk,
      tickSize: weiToString(BigInt(m.tickMicro)),
    });
  }
  const given = opts.expiry ?? 0;
  const expiryOf = typeof given === "function" ? given : () => given;
  return async (intent, current) => {
    const listed = byToken.get(intent.tokenId);
    if (listed === undefined) {
      throw new MmError("unknown_token", "no market parameters for this token", { tokenId: intent.tokenId });
    }
    const market =
      current === undefined || current.feeTakerBps === listed.feeTakerBps
        ? listed
        : { ...listed, feeTakerBps: current.feeTakerBps };
    const built = await builder.build({
      market,
      side: intent.quote.side,
      price: weiToString(BigInt(intent.quote.priceMicro)),
      quantity: weiToString(intent.quote.sizeMicro),
      expiry: expiryOf(),
      clientOrderId: intent.clientOrderId,
      type: "limit",
      timeInForce: "gtc",
    });
    opts.signed?.remember(intent.clientOrderId, {
      struct: built.struct,
      domain: built.domain,
      negRisk: market.negRisk,
    });
    return built.body;
  };
}
