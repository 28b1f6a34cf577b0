import { SETTLED_MARKET_STATUSES } from "../core/types.js";
import type { EngineCore } from "./engine-core.js";

/**
 * Reads a market's record after a sign that it may have resolved without a push (the spec says most
 * lifecycle events are not yet emitted): a placement refused `market_not_open`, or a position drift
 * on its tokens (a redemption). A settled record (RESOLVED, VOIDED) is taken as the push that never
 * came (`core.recordSettled`): the market is gated for good and settled, its tokens marked at the
 * record's payouts, so a redemption moves the baseline instead of being corrected into inventory
 * (engine-settlement.ts). Any other status changes nothing (a refusal's cool-down stays in charge:
 * market-refusals.ts). A failed read is logged and changes nothing. Not awaited: the answer acts when
 * it comes (a drift is corrected only when a later check sees it again).
 * @param after what prompted the read, for the log line ("the refusal", "a position drift")
 */
export function readSettledRecord(core: EngineCore, marketId: string, after: string): void {
  const { exchange, log, tokens } = core;
  if (exchange.marketRecord === undefined) return;
  const slug = tokens.slugOf(marketId);
  exchange.marketRecord({ marketId, slug }).then(
    (record) => {
      if (SETTLED_MARKET_STATUSES.has(record.status)) core.recordSettled(marketId, record, after);
      else log.debug({ marketId, slug, status: record.status, after }, "market's record: not settled");
    },
    (err: unknown) => log.warn({ err, marketId, slug, after }, "market's record unreadable"),
  );
}
