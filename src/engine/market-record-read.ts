import { SETTLED_MARKET_STATUSES } from "../core/types.js";
import type { EngineCore } from "./engine-core.js";
import type { MarketRecordStatus } from "./ports.js";

/**
 * After the exchange refused a placement on a market (409 `market_not_open`), reads its record: the
 * spec says most lifecycle events are not yet emitted, so a market can resolve without a push, and
 * the refusal is then the only sign. A settled record (RESOLVED, VOIDED) is taken as the push that
 * never came (`settled`): the market is gated for good and settled, its tokens marked at the
 * record's payouts, so the redemption that follows moves the baseline instead of being corrected
 * into inventory (engine-settlement.ts). Any other status leaves the refusal's cool-down in charge
 * (market-refusals.ts). A failed read is logged and changes nothing.
 */
export function readSettledRecord(
  core: EngineCore,
  marketId: string,
  settled: (record: MarketRecordStatus) => void,
): void {
  const { exchange, log, tokens } = core;
  if (exchange.marketRecord === undefined) return;
  const slug = tokens.slugOf(marketId);
  exchange.marketRecord({ marketId, slug }).then(
    (record) => {
      if (SETTLED_MARKET_STATUSES.has(record.status)) settled(record);
      else log.debug({ marketId, slug, status: record.status }, "refused market's record: not settled");
    },
    (err: unknown) =>
      log.warn({ err, marketId, slug }, "refused market's record unreadable: the cool-down holds"),
  );
}
