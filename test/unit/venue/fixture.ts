import { SimClock } from "../../../src/core/sim-clock.js";
import type { Address } from "../../../src/core/types.js";
import { toWei } from "../../../src/core/wei.js";
import type { VenueEvent } from "../../../src/venue/events.js";
import { counterVenueIds } from "../../../src/venue/ids.js";
import { SimVenue, type SimVenueOptions } from "../../../src/venue/sim-venue.js";
import type { MarketSpec, PlaceOrderInput } from "../../../src/venue/types.js";

export const A = "0x00000000000000000000000000000000000000aa" as Address;
export const B = "0x00000000000000000000000000000000000000bb" as Address;
export const C = "0x00000000000000000000000000000000000000cc" as Address;

export const M1 = "market-1";
export const YES = "1001";
export const NO = "1002";
export const M2 = "market-2";
export const M2_YES = "2001";
export const M2_NO = "2002";

export const T0 = 1_700_000_000_000;

/** Decimal string → micro-units. */
export const u = (s: string): bigint => toWei(s);

export function binaryMarket(
  marketId: string,
  yes: string,
  no: string,
  extra: Partial<MarketSpec> = {},
): MarketSpec {
  return {
    marketId,
    conditionId: `0x${marketId.replace(/\D/g, "").padStart(64, "0")}`,
    outcomes: [
      { label: "YES", tokenId: yes },
      { label: "NO", tokenId: no },
    ],
    tickSize: u("0.01"),
    feeTakerBps: 0,
    status: "OPEN",
    negRisk: false,
    ...extra,
  };
}

export interface Harness {
  venue: SimVenue;
  clock: SimClock;
  events: VenueEvent[];
}

/**
 * A venue on a SimClock with counter ids, two binary markets, and wallets A, B, C each holding
 * 1,000 USDC and 1,000 shares of every token.
 */
export function harness(
  opts: Partial<Omit<SimVenueOptions, "clock" | "ids">> = {},
  markets: MarketSpec[] = [binaryMarket(M1, YES, NO), binaryMarket(M2, M2_YES, M2_NO)],
): Harness {
  const clock = new SimClock(T0);
  const venue = new SimVenue({ clock, ids: counterVenueIds(), ...opts });
  for (const m of markets) venue.registerMarket(m);
  for (const w of [A, B, C]) {
    venue.credit(w, "usdc", u("1000"));
    for (const m of markets) for (const o of m.outcomes) venue.credit(w, o.tokenId, u("1000"));
  }
  const events: VenueEvent[] = [];
  venue.subscribe((e) => events.push(e));
  return { venue, clock, events };
}

/** A limit GTC order on market-1 YES unless overridden. */
export function order(
  wallet: Address,
  side: "buy" | "sell",
  price: string,
  qty: string,
  extra: Partial<PlaceOrderInput> = {},
): PlaceOrderInput {
  return { wallet, marketId: M1, outcome: "YES", side, price: u(price), quantity: u(qty), ...extra };
}
