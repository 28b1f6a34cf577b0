import { SETTLED_MARKET_STATUSES } from "../core/types.js";
import { ClosedMarketWatch } from "./closed-market-watch.js";
import type { EngineCore } from "./engine-core.js";
import { settleMarket } from "./engine-settlement.js";
import { readSettledRecord } from "./market-record-read.js";
import { MarketRefusals, REFUSED_STATUS } from "./market-refusals.js";
import { OpenMarketSweep } from "./open-market-sweep.js";
import type { MarketRecordStatus } from "./ports.js";

/**
 * Every way the engine learns a market's status, and what a new status does. The words on it are,
 * from the most to the least direct: a condition_lifecycle push (`pushed`); the market's record, read
 * after a sign of a silent change (`recordRead`: a refusal, a drift to zero holdings, the
 * once-a-minute read of a market closed by its status, or of a settled market whose payouts are not
 * known yet: closed-market-watch.ts; and the once-a-minute sweep of the open ones' statuses, which
 * holds a market paused silently on a book that never moves: open-market-sweep.ts); and a placement refused `market_not_open` (`refused`: gated
 * for a cool-down, market-refusals.ts, unless the record it reads says why: #refusalRecord). Each new status is recorded on the tokens, judged by the
 * risk guard and applied to the position book (a resolved market is settled, and marked at its
 * payouts when they are known: engine-settlement.ts), which requotes what it moved.
 *
 * A pushed or read status is logged here (warn) when it differs from the one the engine held, and
 * only then: the exchange may say the same thing twice (the mock's market_status RESOLVED, then its
 * market_resolved with the payouts), and a repeat is no news; the payouts log their own line.
 *
 * Settled is final: a later status that is not RESOLVED or VOIDED (a push the exchange should never
 * send) is logged and ignored, so the market stays gated, its marks pinned and its books retired
 * (nothing watches them to quote from again).
 */
export class MarketStatuses {
  readonly #core: EngineCore;
  readonly #refusals: MarketRefusals;
  readonly #closed: ClosedMarketWatch;
  readonly #open: OpenMarketSweep;
  /** Statuses applied per market (a version: the sweep drops an answer read across a change). */
  readonly #versions = new Map<string, number>();
  #started = false;
  #stopped = false;

  constructor(core: EngineCore) {
    this.#core = core;
    this.#refusals = new MarketRefusals(
      core.clock,
      (marketId, status) => {
        if (!this.#unsettles(marketId, status)) this.#apply(marketId, status);
      },
      core.options.marketRecheckMs,
    );
    // The watch asks the sweep to read the market list for a market it did not find by its slug
    // (renamed while closed, maybe), and the list's word comes back to it.
    this.#closed = new ClosedMarketWatch(
      core,
      (marketId, record, how, said) => this.recordRead(marketId, record, how, said),
      (marketId) => this.#open.ask(marketId),
    );
    this.#open = new OpenMarketSweep(
      core,
      (marketId, record, how, said) => this.recordRead(marketId, record, how, said),
      (marketId) => this.#versions.get(marketId) ?? 0,
      (marketId, listed, stale) => this.#closed.listSays(marketId, listed, stale),
    );
  }

  /**
   * A lifecycle push: it supersedes a refusal's gate. Taken while the engine stops too: the status
   * is as true then (logged when new, applied, its payouts pinned), and the stop's last PnL snapshot
   * (the journal's, on `stopped`) must count a resolution that came meanwhile. It starts nothing once
   * stopped: the closed-market watch is stopped and the refusals' cool-downs are cleared.
   */
  pushed(marketId: string, status: string, payouts?: Readonly<Record<string, string>>): void {
    this.#report(marketId, status, payouts, undefined);
  }

  /**
   * A placement refused `market_not_open`: gates the market, and reads its record once per gate.
   * Nothing once the engine is stopping: a placement on its way when the stop began may be refused
   * after it, and a cool-down (quoting never retries) or a read (its answer dropped) is work for nothing.
   */
  refused(marketId: string): void {
    if (this.#stopped || !this.#refusals.refused(marketId)) return;
    this.#core.log.warn(
      { marketId, coolDownMs: this.#core.options.marketRecheckMs },
      "market refused a placement (not OPEN): gated, quoting retries after the cool-down",
    );
    void readSettledRecord(this.#core, marketId, "the refusal", (record) =>
      this.#refusalRecord(marketId, record),
    );
  }

  /**
   * The refusal's read found the market not settled. A record saying why it refused (PAUSED,
   * SUSPENDED…) is taken as the push that never came: the market is closed by that status, so no
   * placement probes it at the cool-down's end (a burst of 409s a minute for as long as it stays
   * paused) and the closed-market watch reads its record until it says OPEN, which reopens it. A
   * record saying OPEN (reopened meanwhile, or lagging) leaves the cool-down in charge. The answer is
   * dropped when the status moved while it was out (a push, the cool-down's end: newer words).
   */
  #refusalRecord(marketId: string, record: MarketRecordStatus): void {
    if (this.#stopped || record.status === "OPEN") return;
    const { tokens } = this.#core;
    if (tokens.get(tokens.tokensOf(marketId)[0] ?? "")?.market.status !== REFUSED_STATUS) return;
    this.#report(marketId, record.status, record.payouts, "after the refusal");
  }

  /**
   * The market's record says `record.status` (`how` it was read, for the log lines): taken as a push.
   * `said`: where the status line says the status came from, when not the record (the open-market
   * sweep's list, its record unreadable: an operator reading the record must not be told it said so).
   */
  recordRead(
    marketId: string,
    record: MarketRecordStatus,
    how: string,
    said = `its record, read ${how}`,
  ): void {
    if (this.#stopped) return;
    this.#report(marketId, record.status, record.payouts, how, said);
  }

  /**
   * Engine start: markets closed by their status are read from now on, and so are the statuses of
   * the open ones (the open-market sweep: a market paused silently is held).
   */
  start(): void {
    this.#started = true;
    this.#closed.arm();
    this.#open.arm();
  }

  /**
   * Engine stop: no cool-down or read starts any more, and a record read still out is dropped
   * (recordRead); pushes are still taken (pushed).
   */
  stop(): void {
    this.#stopped = true;
    this.#refusals.clear();
    this.#closed.stop();
    this.#open.stop();
  }

  /**
   * A status pushed (`how` undefined) or read from the record: logged when new (`said`: where it
   * came from, for the line), then applied.
   */
  #report(
    marketId: string,
    status: string,
    payouts: Readonly<Record<string, string>> | undefined,
    how: string | undefined,
    said = how === undefined ? undefined : `its record, read ${how}`,
  ): void {
    if (this.#unsettles(marketId, status)) return;
    const { log, tokens } = this.#core;
    const previous = tokens.get(tokens.tokensOf(marketId)[0] ?? "")?.market.status;
    if (status !== previous) {
      log.warn(
        { marketId, slug: tokens.slugOf(marketId), status, previous },
        `market is now ${status}${said === undefined ? "" : ` (${said})`}`,
      );
    }
    this.#refusals.pushed(marketId, status);
    this.#apply(marketId, status, payouts, how);
  }

  /** True (and logged) when `status` would un-settle a settled market: ignored, settled is final. */
  #unsettles(marketId: string, status: string): boolean {
    const { positions, tokens, log } = this.#core;
    const settled = tokens.tokensOf(marketId).some((t) => positions.settled(t));
    if (!settled || SETTLED_MARKET_STATUSES.has(status)) return false;
    log.warn(
      { marketId, slug: tokens.slugOf(marketId), status },
      `market is settled: status ${status} ignored (settled is final; it stays gated, its books unwatched)`,
    );
    return true;
  }

  #apply(marketId: string, status: string, payouts?: Readonly<Record<string, string>>, how?: string): void {
    const core = this.#core;
    this.#versions.set(marketId, (this.#versions.get(marketId) ?? 0) + 1);
    core.tokens.setMarketStatus(marketId, status);
    core.enforce(core.risk.onMarketStatus(marketId, status));
    // Requotes the market, and the other markets when a settlement moved their limits.
    settleMarket(core, marketId, status, payouts, how);
    // A market closed by its status now (or settled without its payouts): its record is read from
    // the next round on; one open now: its status is swept from the next round on.
    if (this.#started) {
      this.#closed.arm();
      this.#open.arm();
    }
  }
}
