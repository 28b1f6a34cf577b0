import { Decimal } from "decimal.js";
import { Dec, toDec } from "./decimal.js";
import { ValidationError } from "./errors.js";

/** How to bring an off-tick price onto the grid. Quotes round away from the touch: bids down, asks up. */
export type TickRounding = "down" | "up" | "nearest";

/** The smallest tick the exchange's 6-decimal amounts can express. */
const MIN_TICK = new Dec("0.000001");

/**
 * Checks a tick size: positive, at most 0.5, a multiple of 1e-6 (so every on-tick price has an exact wei form).
 */
export function assertTick(tick: Decimal | string): Decimal {
  const t = toDec(tick, "tick");
  if (t.lte(0) || t.gt("0.5") || !t.mod(MIN_TICK).isZero()) {
    throw new ValidationError(
      "invalid_tick",
      `tick ${t.toFixed()} must be a multiple of 0.000001 in (0, 0.5]`,
      {
        tick: t.toFixed(),
      },
    );
  }
  return t;
}

/** True when `price` is an exact multiple of `tick`. */
export function isOnTick(price: Decimal | string, tick: Decimal | string): boolean {
  return toDec(price, "price").mod(toDec(tick, "tick")).isZero();
}

/**
 * Rounds a price onto the tick grid.
 * @example roundToTick("0.537", "0.01", "down") // 0.53
 */
export function roundToTick(price: Decimal | string, tick: Decimal | string, mode: TickRounding): Decimal {
  const p = toDec(price, "price");
  const t = assertTick(tick);
  const rm =
    mode === "down" ? Decimal.ROUND_FLOOR : mode === "up" ? Decimal.ROUND_CEIL : Decimal.ROUND_HALF_EVEN;
  return p.div(t).toDecimalPlaces(0, rm).times(t);
}

/** The tradable band for a market with this tick: [tick, 1 − tick]. */
export function priceBand(tick: Decimal | string): { min: Decimal; max: Decimal } {
  const t = assertTick(tick);
  return { min: t, max: new Dec(1).minus(t) };
}

/** Clamps a price into [tick, 1 − tick]. */
export function clampToBand(price: Decimal | string, tick: Decimal | string): Decimal {
  const { min, max } = priceBand(tick);
  return Decimal.min(Decimal.max(toDec(price, "price"), min), max);
}

/**
 * Validates a price for an order: a multiple of tick, within [tick, 1 − tick]. Returns it as a Decimal.
 * Throws ValidationError `off_tick` or `price_out_of_band`.
 */
export function validatePrice(price: Decimal | string, tick: Decimal | string): Decimal {
  const p = toDec(price, "price");
  const t = assertTick(tick);
  if (!p.mod(t).isZero()) {
    throw new ValidationError("off_tick", `price ${p.toFixed()} is not a multiple of tick ${t.toFixed()}`, {
      price: p.toFixed(),
      tick: t.toFixed(),
    });
  }
  const { min, max } = priceBand(t);
  if (p.lt(min) || p.gt(max)) {
    throw new ValidationError(
      "price_out_of_band",
      `price ${p.toFixed()} is outside [${min.toFixed()}, ${max.toFixed()}]`,
      { price: p.toFixed(), min: min.toFixed(), max: max.toFixed() },
    );
  }
  return p;
}
