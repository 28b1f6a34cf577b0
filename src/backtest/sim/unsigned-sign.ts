import type { TokenMarket } from "../../core/trading.js";
import type { Address, PlaceOrderRequest } from "../../core/types.js";
import type { PlaceIntent } from "../../execution/intents.js";
import { weiToString } from "../../venue/wire.js";
import { BacktestError } from "../errors.js";

/**
 * The engine's `sign` dependency for a backtest: the body a signed placement would carry, with a
 * placeholder signature. The simulated venue, like the mock's matching core, settles no chain and
 * checks no signature (the mock exchange's HTTP layer does that); signing would cost ~0.3 ms an
 * order and change nothing the backtest measures.
 * @example const sign = unsignedPlacement(markets, wallet); await sign(intent) // PlaceOrderRequest
 */
export function unsignedPlacement(
  markets: readonly TokenMarket[],
  maker: Address,
): (intent: PlaceIntent) => Promise<PlaceOrderRequest> {
  const byToken = new Map(markets.map((m) => [m.tokenId, m]));
  return async (intent) => {
    const m = byToken.get(intent.tokenId);
    if (m === undefined) {
      throw new BacktestError("unknown_token", `no market for token ${intent.tokenId}`, {
        tokenId: intent.tokenId,
      });
    }
    return {
      marketId: m.marketId,
      side: intent.quote.side,
      outcome: m.outcome,
      price: weiToString(BigInt(intent.quote.priceMicro)),
      quantity: weiToString(intent.quote.sizeMicro),
      nonce: "0",
      expiry: 0,
      maker,
      signature: "0x00",
      clientOrderId: intent.clientOrderId,
      type: "limit",
      timeInForce: "gtc",
    };
  };
}
