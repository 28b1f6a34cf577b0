import type { Logger } from "../observability/logger.js";
import type { RiskDecision } from "../risk/decision.js";
import type { EngineEvent } from "./engine-events.js";

/**
 * Sizes told per token at most: a strategy whose size moves with every step (inventory-scaled)
 * would otherwise write a line per step, and the set of sizes seen would grow without end.
 */
export const OVERSIZE_SIZES_PER_TOKEN = 8;

/**
 * Tells, once per token and size, that order.maxSize drops a desired quote outright
 * (`order_size_exceeded`: under `oversize: "drop"`, or a maximum below the market's minimum): that
 * size is never quoted on that token, however often the strategy asks, and does not fix itself as
 * a reduce-only or a stale book does. The guard's standing-decision line (DecisionLog, info) comes
 * and goes with its other decisions, and mm_risk_decisions_total counts every quoting step; this is
 * a warn line an operator filtering on warnings sees, and an `oversize_dropped` event
 * (mm_risk_oversize_sizes_total) whose increase says a new size became unquotable. At most
 * OVERSIZE_SIZES_PER_TOKEN sizes per token are told.
 * @example
 * const notice = new OversizeNotice(log, emit, slugOf);
 * notice.see(stepDecisions, clock.now()); // warns once for token t1 at size 300
 */
export class OversizeNotice {
  readonly #log: Logger;
  readonly #emit: (e: EngineEvent) => void;
  readonly #slugOf: (marketId: string) => string | undefined;
  /** Sizes told, per token. */
  readonly #told = new Map<string, Set<string>>();

  constructor(
    log: Logger,
    emit: (e: EngineEvent) => void,
    slugOf: (marketId: string) => string | undefined = () => undefined,
  ) {
    this.#log = log;
    this.#emit = emit;
    this.#slugOf = slugOf;
  }

  /** One quoting step's decisions (DecisionLog.step); cheap when none is an oversize drop. */
  see(decisions: readonly RiskDecision[], now: number): void {
    for (const d of decisions) {
      if (d.reason !== "order_size_exceeded" || d.action !== "drop" || d.tokenId === undefined) continue;
      const size = String(d.detail.size);
      let told = this.#told.get(d.tokenId);
      if (told === undefined) {
        told = new Set();
        this.#told.set(d.tokenId, told);
      }
      if (told.has(size) || told.size >= OVERSIZE_SIZES_PER_TOKEN) continue;
      told.add(size);
      const limit = String(d.detail.limit);
      const marketId = d.marketId ?? "";
      this.#log.warn(
        {
          tokenId: d.tokenId,
          marketId,
          slug: this.#slugOf(marketId),
          side: d.side,
          quoteLevel: d.level,
          size,
          maxSize: limit,
        },
        "risk: quote size above order.maxSize is never quoted (dropped, not clipped)",
      );
      this.#emit({ type: "oversize_dropped", atMs: now, tokenId: d.tokenId, marketId, size, maxSize: limit });
    }
  }
}
