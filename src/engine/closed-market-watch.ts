import type { TimerId } from "../core/clock.js";
import { SETTLED_MARKET_STATUSES } from "../core/types.js";
import type { EngineCore } from "./engine-core.js";
import { REFUSED_STATUS } from "./market-refusals.js";
import type { MarketRecordStatus } from "./ports.js";

/** How often the record of each market the engine holds closed is read. */
export const CLOSED_MARKET_READ_MS = 60_000;

/**
 * Reads, once a minute, the record of every market the engine holds closed by its status (listed
 * not OPEN at start, or closed by a push), and reports a status that changed (`changed`). The spec
 * says most lifecycle events are not yet emitted, so a market listed PRE_MARKET, or paused by a push,
 * may open silently: without this it stayed dark for the whole run. Markets past their closesAt
 * (gated by the clock), settled ones (for good) and those gated by a refusal (its cool-down retries)
 * are not read. A failed read is logged at debug and tried again at the next round. Does nothing on
 * a port without `marketRecord` (the backtest's venue: its recorded pushes are all there is).
 */
export class ClosedMarketWatch {
  readonly #core: EngineCore;
  readonly #changed: (marketId: string, record: MarketRecordStatus) => void;
  readonly #reading = new Set<string>();
  #timer: TimerId | undefined;
  #stopped = false;

  constructor(core: EngineCore, changed: (marketId: string, record: MarketRecordStatus) => void) {
    this.#core = core;
    this.#changed = changed;
  }

  /** Starts the rounds (engine start); no-op on a port without marketRecord. */
  start(): void {
    if (this.#stopped || this.#core.exchange.marketRecord === undefined) return;
    this.#timer = this.#core.clock.setTimer(CLOSED_MARKET_READ_MS, () => this.#round());
  }

  /** Stops the rounds (engine stop); answers still on their way are dropped. */
  stop(): void {
    this.#stopped = true;
    if (this.#timer !== undefined) this.#core.clock.cancelTimer(this.#timer);
    this.#timer = undefined;
  }

  #round(): void {
    this.#timer = undefined;
    if (this.#stopped) return;
    const now = this.#core.clock.now();
    const seen = new Set<string>();
    for (const { market: m } of this.#core.tokens.slots()) {
      if (seen.has(m.marketId)) continue;
      seen.add(m.marketId);
      const closedByStatus =
        m.status !== "OPEN" && m.status !== REFUSED_STATUS && !SETTLED_MARKET_STATUSES.has(m.status);
      const pastClose = m.closesAtMs !== undefined && m.closesAtMs <= now;
      if (closedByStatus && !pastClose) this.#read(m.marketId, m.status);
    }
    this.start();
  }

  #read(marketId: string, known: string): void {
    const { exchange, log, tokens } = this.#core;
    if (exchange.marketRecord === undefined || this.#reading.has(marketId)) return;
    this.#reading.add(marketId);
    const slug = tokens.slugOf(marketId);
    exchange.marketRecord({ marketId, slug }).then(
      (record) => {
        this.#reading.delete(marketId);
        if (this.#stopped) return;
        // Compared with the status now, not at the read: a push may have moved it meanwhile.
        const current = tokens.get(tokens.tokensOf(marketId)[0] ?? "")?.market.status ?? known;
        if (record.status !== current) this.#changed(marketId, record);
      },
      (err: unknown) => {
        this.#reading.delete(marketId);
        log.debug({ err, marketId, slug }, "closed market's record unreadable: read again next round");
      },
    );
  }
}
