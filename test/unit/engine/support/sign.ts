import type { TokenMarket } from "../../../../src/core/trading.js";
import type { PlaceOrderRequest } from "../../../../src/core/types.js";
import type { PlaceIntent } from "../../../../src/execution/intents.js";
import { weiToString } from "../../../../src/venue/wire.js";

/**
 * The engine's `sign` for tests over the VenueExchange (which, like the venue, does not check
 * signatures): the request body a signed order would carry, deterministic per intent.
 */
export function testSign(intent: PlaceIntent, markets: readonly TokenMarket[]): PlaceOrderRequest {
  const m = markets.find((x) => x.tokenId === intent.tokenId);
  if (m === undefined) throw new Error(`unknown token ${intent.tokenId}`);
  return {
    marketId: m.marketId,
    side: intent.quote.side,
    outcome: m.outcome,
    price: weiToString(BigInt(intent.quote.priceMicro)),
    quantity: weiToString(intent.quote.sizeMicro),
    nonce: "0",
    expiry: 0,
    maker: "0x00000000000000000000000000000000000000b0",
    signature: "0x00",
    clientOrderId: intent.clientOrderId,
    type: "limit",
    timeInForce: "gtc",
  };
}
