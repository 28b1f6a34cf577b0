import type { OrderType, TimeInForce } from "../core/types.js";
import type { MarketEntry, MarketRegistry } from "./markets.js";
import type { OutcomeSpec, PlaceOrderInput, PlaceRejectCode, VenueReject } from "./types.js";

/** A placement that passed every stateless check. */
export interface CheckedPlacement {
  readonly market: MarketEntry;
  readonly outcomeIndex: number;
  readonly outcome: OutcomeSpec;
  readonly type: OrderType;
  readonly timeInForce: TimeInForce;
  readonly expiry: number;
}

type Reject = VenueReject<PlaceRejectCode>;

function reject(code: PlaceRejectCode, message: string, details: Record<string, unknown> = {}): Reject {
  return { code, message, details };
}

/**
 * The venue's placement checks, in order: market known and outcome valid, time in force, amounts
 * (positive, on tick, within [tick, 1 − tick], at least the market's minimum size), expiry, market
 * open. Funds and executability are checked later against live state.
 *
 * Codes where the spec names none: an unknown market is `market_not_open` (details.reason
 * `unknown_market`); an off-tick or out-of-band price and a quantity under the minimum are
 * `invalid_amounts` (details.reason `off_tick`, `price_out_of_band`, `below_min_size`).
 */
export function checkPlacement(
  input: PlaceOrderInput,
  markets: MarketRegistry,
  nowMs: number,
): CheckedPlacement | Reject {
  const market = markets.get(input.marketId);
  if (market === undefined) {
    return reject("market_not_open", `market ${input.marketId} does not exist`, {
      marketId: input.marketId,
      reason: "unknown_market",
    });
  }
  const outcome = markets.outcomeOf(market, input.outcome);
  if (outcome === undefined) {
    return reject("invalid_outcome", `outcome ${input.outcome} is not one of the market's outcomes`, {
      outcome: input.outcome,
      outcomes: market.spec.outcomes.map((o) => o.label),
    });
  }
  const type = input.type ?? "limit";
  const timeInForce = input.timeInForce ?? (type === "market" ? "ioc" : "gtc");
  if (type === "market" && timeInForce === "gtc") {
    return reject("invalid_tif", "a market order cannot rest: use ioc or fok", { type, timeInForce });
  }
  const amounts = checkAmounts(input, market);
  if (amounts !== undefined) return amounts;
  const expiry = input.expiry ?? 0;
  if (!Number.isSafeInteger(expiry) || expiry < 0) {
    return reject("invalid_amounts", "expiry must be a non-negative integer of unix seconds", { expiry });
  }
  if (expiry !== 0 && expiry * 1000 <= nowMs) {
    return reject("expired", "order expiration is in the past", { expiry, nowMs });
  }
  if (market.status !== "OPEN") {
    return reject("market_not_open", `market ${input.marketId} is ${market.status}`, {
      marketId: input.marketId,
      status: market.status,
    });
  }
  return { market, outcomeIndex: outcome.index, outcome: outcome.spec, type, timeInForce, expiry };
}

function checkAmounts(input: PlaceOrderInput, market: MarketEntry): Reject | undefined {
  const { price, quantity } = input;
  const tick = market.spec.tickSize;
  if (price <= 0n || quantity <= 0n) {
    return reject("invalid_amounts", "price and quantity must be above 0", {
      price: price.toString(),
      quantity: quantity.toString(),
    });
  }
  if (price % tick !== 0n) {
    return reject("invalid_amounts", "price is not a multiple of the market's tick", {
      reason: "off_tick",
      price: price.toString(),
      tick: tick.toString(),
    });
  }
  if (price < tick || price > 1_000_000n - tick) {
    return reject("invalid_amounts", "price is outside [tick, 1 − tick]", {
      reason: "price_out_of_band",
      price: price.toString(),
      tick: tick.toString(),
    });
  }
  if (quantity < market.minSize) {
    return reject("invalid_amounts", "quantity is below the market's minimum size", {
      reason: "below_min_size",
      quantity: quantity.toString(),
      minSize: market.minSize.toString(),
    });
  }
  return undefined;
}
