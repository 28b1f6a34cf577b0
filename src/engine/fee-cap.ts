import { MAX_FEE_RATE_BPS } from "../core/fees.js";
import type { EngineCore } from "./engine-core.js";
import { warnImpossibleLimits } from "./impossible-limits.js";

/** The halt's status label (and the guard's why) of a market whose feeTakerBps is above the cap. */
export const FEE_TOO_HIGH_STATUS = "FEE_TOO_HIGH";

/**
 * Holds a market whose feeTakerBps is above MAX_FEE_RATE_BPS (1000, the spec's cap on feeRateBps)
 * as unquotable, or lets it be quoted again once its fee is within the cap. Every order is signed
 * with its market's feeTakerBps verbatim (the spec requires it), and above the cap local signing
 * refuses it `fee_too_high`: quoting such a market only made signing failures, and those count
 * towards the wallet-wide error-rate halt, so one untradeable market stopped quoting on every
 * market, again after every cool-down (review22). Held instead: the risk guard gates it
 * (`market_unquotable`, its quotes cancelled, nothing placed; counted in mm_risk_halts_total with
 * status FEE_TOO_HIGH), warned once when it becomes so and told at info when it ends. A null fee
 * (the platform default, `signing.defaultFeeRateBps`, within the cap by config) is quotable.
 * Called at the engine's start for every market and whenever a read of a market's record changed
 * its fee (fee-recheck.ts takeRecordFee).
 */
export function judgeMarketFee(
  core: Pick<EngineCore, "risk" | "log" | "tokens" | "enforce">,
  marketId: string,
  fee: number | null,
): void {
  const { risk, log, tokens } = core;
  const held = risk.marketUnquotable(marketId) === FEE_TOO_HIGH_STATUS;
  const over = fee !== null && fee > MAX_FEE_RATE_BPS;
  if (over === held) return;
  const slug = tokens.slugOf(marketId);
  if (over) {
    log.warn(
      { marketId, slug, feeTakerBps: fee, max: MAX_FEE_RATE_BPS },
      `market's feeTakerBps ${fee} is above the cap of ${MAX_FEE_RATE_BPS} (no order there can be signed): held, not quoted, until its record shows a fee within the cap`,
    );
    core.enforce(risk.onMarketUnquotable(marketId, FEE_TOO_HIGH_STATUS, { feeTakerBps: fee }));
  } else {
    risk.onMarketUnquotable(marketId, undefined);
    log.info({ marketId, slug, feeTakerBps: fee }, "market's feeTakerBps is within the cap again: quoted");
  }
}

/**
 * Engine start, before the first quoting step: a risk limit no quote can pass on some quoted markets
 * (below their minimum size: impossible-limits.ts) is named once, and every market's fee is judged
 * (judgeMarketFee: one above the cap is held).
 */
export function holdUnquotableAtStart(core: Pick<EngineCore, "risk" | "log" | "tokens" | "enforce">): void {
  const quoted = [...core.tokens.slots()].filter((s) => s.strategy !== undefined).map((s) => s.market);
  warnImpossibleLimits(core.log, core.risk.config, quoted);
  for (const marketId of core.tokens.marketIds()) {
    const fee = core.tokens.get(core.tokens.tokensOf(marketId)[0] ?? "")?.market.feeTakerBps;
    if (fee !== undefined) judgeMarketFee(core, marketId, fee);
  }
}
