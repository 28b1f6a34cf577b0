import { ClosedMarketWatch } from "./closed-market-watch.js";
import type { EngineCore } from "./engine-core.js";
import { settleMarket } from "./engine-settlement.js";
import { readSettledRecord } from "./market-record-read.js";
import { MARKET_REFUSED_COOLDOWN_MS, MarketRefusals } from "./market-refusals.js";
import type { MarketRecordStatus } from "./ports.js";

/**
 * Every way the engine learns a market's status, and what a new status does. The words on it are,
 * from the most to the least direct: a condition_lifecycle push (`pushed`); the market's record, read
 * after a sign of a silent change (`recordRead`: a refusal, a drift to zero holdings, or the
 * once-a-minute read of a market closed by its status, closed-market-watch.ts); and a placement
 * refused `market_not_open` (`refused`: gated for a cool-down, market-refusals.ts). Each new status is
 * recorded on the tokens, judged by the risk guard and applied to the position book (a resolved
 * market is settled: engine-settlement.ts), which requotes what it moved.
 */
export class MarketStatuses {
  readonly #core: EngineCore;
  readonly #refusals: MarketRefusals;
  readonly #closed: ClosedMarketWatch;
  #started = false;
  #stopped = false;

  constructor(core: EngineCore) {
    this.#core = core;
    this.#refusals = new MarketRefusals(core.clock, (marketId, status) => this.#apply(marketId, status));
    this.#closed = new ClosedMarketWatch(core, (marketId, record) =>
      this.recordRead(marketId, record, "while it was closed"),
    );
  }

  /** A lifecycle push (or its stand-in, a settled record): it supersedes a refusal's gate. */
  pushed(marketId: string, status: string, payouts?: Readonly<Record<string, string>>): void {
    this.#refusals.pushed(marketId, status);
    this.#apply(marketId, status, payouts);
  }

  /** A placement refused `market_not_open`: gates the market, and reads its record once per gate. */
  refused(marketId: string): void {
    if (!this.#refusals.refused(marketId)) return;
    this.#core.log.warn(
      { marketId, coolDownMs: MARKET_REFUSED_COOLDOWN_MS },
      "market refused a placement (not OPEN): gated, quoting retries after the cool-down",
    );
    void readSettledRecord(this.#core, marketId, "the refusal");
  }

  /** The market's record says `record.status` (`how` it was read, for the log line): taken as a push. */
  recordRead(marketId: string, record: MarketRecordStatus, how: string): void {
    if (this.#stopped) return;
    const { status, payouts } = record;
    this.#core.log.warn(
      { marketId, slug: this.#core.tokens.slugOf(marketId), status },
      `market is now ${status} (its record, read ${how})`,
    );
    this.pushed(marketId, status, payouts);
  }

  /** Engine start: markets closed by their status are read from now on. */
  start(): void {
    this.#started = true;
    this.#closed.arm();
  }

  /** Engine stop: no cool-down, read or status acts any more. */
  stop(): void {
    this.#stopped = true;
    this.#refusals.clear();
    this.#closed.stop();
  }

  #apply(marketId: string, status: string, payouts?: Readonly<Record<string, string>>): void {
    const core = this.#core;
    core.tokens.setMarketStatus(marketId, status);
    core.enforce(core.risk.onMarketStatus(marketId, status));
    // Requotes the market, and the other markets when a settlement moved their limits.
    settleMarket(core, marketId, status, payouts);
    // A market closed by its status now: its record is read from the next round on.
    if (this.#started) this.#closed.arm();
  }
}
