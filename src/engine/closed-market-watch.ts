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
 * are not read. Reads go one at a time, and a failed read (logged at debug) ends the round: the next
 * round, a minute after, tries again. An answer is dropped when the status moved while it was out
 * (a push is newer). Does nothing on a port without `marketRecord` (the backtest's venue: its
 * recorded pushes are all there is).
 */
export class ClosedMarketWatch {
  readonly #core: EngineCore;
  readonly #changed: (marketId: string, record: MarketRecordStatus) => void;
  #timer: TimerId | undefined;
  #running = false;
  #stopped = false;

  constructor(core: EngineCore, changed: (marketId: string, record: MarketRecordStatus) => void) {
    this.#core = core;
    this.#changed = changed;
  }

  /**
   * Starts the next round a minute from now, when there is a market to read and none is scheduled
   * (engine start, and each market status change): no timer runs while every market is open.
   * No-op after stop and on a port without marketRecord.
   */
  arm(): void {
    if (this.#stopped || this.#timer !== undefined || this.#running) return;
    if (this.#core.exchange.marketRecord === undefined || this.#due().length === 0) return;
    this.#timer = this.#core.clock.setTimer(CLOSED_MARKET_READ_MS, () => this.#round());
  }

  /** Stops the rounds (engine stop); answers still on their way are dropped. */
  stop(): void {
    this.#stopped = true;
    if (this.#timer !== undefined) this.#core.clock.cancelTimer(this.#timer);
    this.#timer = undefined;
  }

  /** Markets closed by their status, not past their close, not settled, not in a refusal's cool-down. */
  #due(): { marketId: string; known: string }[] {
    const now = this.#core.clock.now();
    const due: { marketId: string; known: string }[] = [];
    const seen = new Set<string>();
    for (const { market: m } of this.#core.tokens.slots()) {
      if (seen.has(m.marketId)) continue;
      seen.add(m.marketId);
      const closedByStatus =
        m.status !== "OPEN" && m.status !== REFUSED_STATUS && !SETTLED_MARKET_STATUSES.has(m.status);
      const pastClose = m.closesAtMs !== undefined && m.closesAtMs <= now;
      if (closedByStatus && !pastClose) due.push({ marketId: m.marketId, known: m.status });
    }
    return due;
  }

  #round(): void {
    this.#timer = undefined;
    if (this.#stopped) return;
    // One read at a time, the round ending at the first failure: these best-effort reads share the
    // client's circuit breaker with the orders, and a burst of failures could open it for every
    // request, cancels included. The next round starts a minute after this one ends.
    this.#running = true;
    void this.#readAll(this.#due()).finally(() => {
      this.#running = false;
      this.arm();
    });
  }

  async #readAll(due: readonly { marketId: string; known: string }[]): Promise<void> {
    for (const { marketId, known } of due) {
      if (this.#stopped || !(await this.#read(marketId, known))) return;
    }
  }

  /** Reads one market's record; false when the read failed. */
  async #read(marketId: string, known: string): Promise<boolean> {
    const { exchange, log, tokens } = this.#core;
    if (exchange.marketRecord === undefined) return false;
    const slug = tokens.slugOf(marketId);
    let record: MarketRecordStatus;
    try {
      record = await exchange.marketRecord({ marketId, slug });
    } catch (err) {
      log.debug({ err, marketId, slug }, "closed market's record unreadable: read again next round");
      return false;
    }
    if (this.#stopped) return true;
    // A push (or a refusal) that moved the status while the read was out is newer than the answer,
    // which the exchange may have served before it: the answer is dropped, the next round reads again.
    const current = tokens.get(tokens.tokensOf(marketId)[0] ?? "")?.market.status;
    if (current === known && record.status !== known) this.#changed(marketId, record);
    return true;
  }
}
