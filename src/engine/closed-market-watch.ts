import type { TimerId } from "../core/clock.js";
import { SETTLED_MARKET_STATUSES } from "../core/types.js";
import type { EngineCore } from "./engine-core.js";
import { REFUSED_STATUS } from "./market-refusals.js";
import { PayoutReads } from "./payout-reads.js";
import type { ListedMarketStatus, MarketRecordStatus } from "./ports.js";
import { isNotFound, ReadFailures } from "./read-failures.js";
import { LIST_WORD, NOT_FOUND_STATUS } from "./sweep-words.js";

export { PAYOUT_READS_GIVE_UP_MS } from "./payout-reads.js";

/** How often, by default (the engine's `marketRecheckMs`), each market held closed has its record read. */
export const CLOSED_MARKET_READ_MS = 60_000;

/** A market to read: `known` is its status when the round began; `payouts` says why it is read. */
interface Due {
  readonly marketId: string;
  readonly known: string;
  /** Settled with its payouts unknown (else: closed by its status). */
  readonly payouts: boolean;
}

/** A 404 (or another market's record) by the slug held, for a market not held NOT_FOUND: the list is asked. */
interface Asked {
  readonly slug: string | undefined;
  readonly known: string;
  readonly err: unknown;
}

const WHILE_CLOSED = "while it was closed";
const WHILE_UNPAID = "while its payouts were unknown";

/**
 * Reads, every `marketRecheckMs` (a minute by default), the record of every market the engine holds
 * closed by its status (listed not OPEN at start, or closed by a push or by the record a refusal
 * read), and reports a status that changed (`changed`). The spec says most lifecycle events are not
 * yet emitted, so a market listed PRE_MARKET, or paused by a push or silently, may open silently:
 * without this it stayed dark for the whole run (or, paused silently, was probed with refused
 * placements every minute). Markets past their closesAt (gated by the clock) and those gated by a
 * refusal (its cool-down retries) are not read.
 *
 * A settled market (RESOLVED, VOIDED) is read only while its payouts are unknown (a push, or the
 * start-up record, without them: PositionBook.awaitingPayouts), past its closesAt too (markets
 * resolve after they close), until a settled record carries them: it is then reported (`changed`,
 * which marks the tokens at the payouts) and no longer read. A record that answers without them for
 * PAYOUT_READS_GIVE_UP_MS (answered without them, or not at all) is no longer read either. That day
 * runs from the market's first read by any run: a first read is reported (`payout_reads_started`,
 * the journal keeps it) and an earlier run's is restored, so restarts do not start it again. A
 * record saying the market is not settled is taken as stale (the exchange does not reopen a
 * resolved market): nothing is reported.
 *
 * Reads go one at a time, each made once with no client-level retry (MarketRead.once, as the
 * open-market sweep's: they share the client's circuit breaker with the orders, cancels included,
 * and with the client's 3 attempts a failing public market service cost it three failures a period
 * per market read; and not as the breaker's half-open probe, MarketRead.neverProbe, unless no probe
 * went out for a bound: a failing read taken as the probe re-opened it, the cancels kept out with
 * it), and a failed read (logged at debug; warned of once when it keeps failing:
 * ReadFailures) ends the round: the next round, a
 * period after, tries again, but reads that market after the others (those whose reads failed go
 * last, the longest-failed first), so one market whose record never reads (a 404 for a market not
 * yet public) does not keep every market after it unread for the whole run, a market paused
 * silently among them, which only this watch reopens. A 404 for a market held NOT_FOUND (the
 * open-market sweep's) is no failure: it is the answer the market was held on (#notFoundStill). A
 * 404 (or another market's record: OtherMarketRecord) for any other market has the open-market
 * sweep read the market list for it (#askList): the market may be back under a new slug, which only
 * the list shows (by its id: SweepList), and the sweep reads the list only while a market is OPEN
 * or held NOT_FOUND. The 404 counts as a failing read only once the list has answered (listSays),
 * and not when the list shows the market by its id: its status is then the list's (#listWord).
 * An answer is dropped when the status moved while it was out, or the
 * payouts it was read for arrived (a push is newer). No timer runs while no market needs reading.
 * Does nothing on a port without `marketRecord` (the backtest's venue: its recorded pushes are all
 * there is).
 */
export class ClosedMarketWatch {
  readonly #core: EngineCore;
  readonly #changed: (marketId: string, record: MarketRecordStatus, how: string, said?: string) => void;
  /** Has the open-market sweep read the market list for a market (undefined: no list to read). */
  readonly #ask: ((marketId: string) => void) | undefined;
  /** Markets whose record was not found by the slug held, the list asked for them (#askList). */
  readonly #asked = new Map<string, Asked>();
  /** Settled markets' day of payout reads (PAYOUT_READS_GIVE_UP_MS). */
  readonly #payouts: PayoutReads;
  /**
   * Markets whose last read failed, with the count of failures (this watch's) at that failure:
   * read after the others, the longest-failed first. Dropped at a read that answers.
   */
  readonly #failed = new Map<string, number>();
  #failures = 0;
  /** Markets whose record was not found, the list showing them by their id: said once (#listWord; OPEN: #listedOpen). */
  readonly #listOnly = new Map<string, "status" | "open">();
  /** Markets held NOT_FOUND whose record was found still not found (404): said once while held. */
  readonly #stillNotFound = new Set<string>();
  /** Reads that keep failing: warned of once, counted in mm_market_status_reads_failing{watch="closed"}. */
  readonly #streaks: ReadFailures;
  #timer: TimerId | undefined;
  #running = false;
  #stopped = false;

  /**
   * @param changed a market's record (or, `said`, the list) says a status other than the one held
   * @param ask has the open-market sweep read the market list for a market, whose answer comes back
   *   to listSays; undefined (or a port without listedMarkets): a 404 counts as a failing read at once
   */
  constructor(
    core: EngineCore,
    changed: (marketId: string, record: MarketRecordStatus, how: string, said?: string) => void,
    ask?: (marketId: string) => void,
  ) {
    this.#core = core;
    this.#changed = changed;
    this.#ask = ask;
    this.#payouts = new PayoutReads(core);
    this.#streaks = new ReadFailures(core, "closed");
  }

  /**
   * Starts the next round a period (marketRecheckMs) from now, when there is a market to read and none is scheduled
   * (engine start, and each market status change): no timer runs while no market needs reading.
   * No-op after stop and on a port without marketRecord.
   */
  arm(): void {
    if (this.#stopped || this.#timer !== undefined || this.#running) return;
    if (this.#core.exchange.marketRecord === undefined || this.#due().length === 0) return;
    this.#timer = this.#core.clock.setTimer(this.#core.options.marketRecheckMs, () => this.#round());
  }

  /** Stops the rounds (engine stop); answers still on their way are dropped. */
  stop(): void {
    this.#stopped = true;
    if (this.#timer !== undefined) this.#core.clock.cancelTimer(this.#timer);
    this.#timer = undefined;
  }

  /**
   * Markets closed by their status (not past their close, not in a refusal's cool-down), then
   * settled ones whose payouts are unknown (not given up on): a payout read that keeps failing ends
   * each round, and must not keep a closed market from being seen to open. Those whose last read
   * failed go last, the longest-failed first (#failed): a round ends at its first failure.
   */
  #due(): Due[] {
    const { clock, positions, tokens } = this.#core;
    const now = clock.now();
    const due: Due[] = [];
    const unpaid: Due[] = [];
    const seen = new Set<string>();
    for (const { market: m } of tokens.slots()) {
      if (seen.has(m.marketId)) continue;
      seen.add(m.marketId);
      if (SETTLED_MARKET_STATUSES.has(m.status)) {
        if (!positions.awaitingPayouts(m.marketId)) this.#payouts.paid(m.marketId);
        else if (!this.#payouts.givenUp(m.marketId)) {
          unpaid.push({ marketId: m.marketId, known: m.status, payouts: true });
        }
        continue;
      }
      const closedByStatus = m.status !== "OPEN" && m.status !== REFUSED_STATUS;
      const pastClose = m.closesAtMs !== undefined && m.closesAtMs <= now;
      if (closedByStatus && !pastClose) due.push({ marketId: m.marketId, known: m.status, payouts: false });
    }
    const all = [...due, ...unpaid];
    for (const id of this.#failed.keys()) {
      if (!all.some((d) => d.marketId === id)) this.#failed.delete(id);
    }
    for (const [id, asked] of this.#asked) {
      if (!all.some((d) => d.marketId === id && d.known === asked.known)) this.#asked.delete(id);
    }
    for (const id of this.#listOnly.keys())
      if (!all.some((d) => d.marketId === id)) this.#listOnly.delete(id);
    for (const id of this.#stillNotFound) {
      if (!due.some((d) => d.marketId === id && d.known === NOT_FOUND_STATUS)) this.#stillNotFound.delete(id);
    }
    // A market no longer read here (reopened, paid, given up on) is no longer failing here.
    const read = new Set(all.map((d) => d.marketId));
    this.#streaks.keepOnly((id) => read.has(id));
    // Stable: the markets that have not failed keep their order (closed ones before unpaid ones).
    return all.sort((a, b) => (this.#failed.get(a.marketId) ?? 0) - (this.#failed.get(b.marketId) ?? 0));
  }

  #round(): void {
    this.#timer = undefined;
    if (this.#stopped) return;
    // One read at a time, the round ending at the first failure: these best-effort reads share the
    // client's circuit breaker with the orders, and a burst of failures could open it for every
    // request, cancels included. The next round starts marketRecheckMs after this one ends, the
    // market that failed moved behind the others (#due), so one failure a round still reaches the rest.
    this.#running = true;
    void this.#readAll(this.#due()).finally(() => {
      this.#running = false;
      this.arm();
    });
  }

  async #readAll(due: readonly Due[]): Promise<void> {
    for (const d of due) {
      if (this.#stopped || !(await this.#read(d))) return;
    }
  }

  /** Reads one market's record; false when the read failed. */
  async #read(d: Due): Promise<boolean> {
    const { exchange, positions, tokens } = this.#core;
    const { marketId, known } = d;
    if (exchange.marketRecord === undefined) return false;
    const slug = tokens.slugOf(marketId);
    // The day's bound runs from the first attempt, answered or not: a record that cannot be read
    // is not read a minute forever either.
    if (d.payouts && this.#payouts.gaveUp(marketId, slug)) return true;
    let record: MarketRecordStatus;
    try {
      // Once, not the breaker's half-open probe: the next round reads again (the class's doc).
      record = await exchange.marketRecord({ marketId, slug }, { once: true, neverProbe: true });
    } catch (err) {
      if (known === NOT_FOUND_STATUS && isNotFound(err)) return this.#notFoundStill(d, slug, err);
      if (isNotFound(err) && this.#askList(d, slug, err)) return true;
      this.#streaks.failed({ key: marketId, marketId, slug }, err, "read again next round");
      this.#failed.set(marketId, ++this.#failures);
      return false;
    }
    this.#failed.delete(marketId);
    this.#listOnly.delete(marketId);
    this.#streaks.succeeded({ key: marketId, marketId, slug });
    if (this.#stopped) return true;
    // A push (or a refusal) that moved the status while the read was out is newer than the answer,
    // which the exchange may have served before it: the answer is dropped, the next round reads again.
    const current = tokens.get(tokens.tokensOf(marketId)[0] ?? "")?.market.status;
    if (current !== known) return true;
    if (!d.payouts) {
      if (record.status !== known) this.#changed(marketId, record, WHILE_CLOSED);
      return true;
    }
    // Read for the payouts: a push that brought them meanwhile is newer.
    if (!positions.awaitingPayouts(marketId)) return true;
    if (SETTLED_MARKET_STATUSES.has(record.status) && record.payouts !== undefined) {
      this.#changed(marketId, record, WHILE_UNPAID);
    }
    return true;
  }

  /**
   * A market held NOT_FOUND (the open-market sweep's 404) whose record is still not found: an
   * answer, the one it was held on, not a failing read. Counted as failing, a market gone for good
   * (CANCELLED, not public) kept mm_market_status_reads_failing{watch="closed"} at 1 and
   * MmMarketStatusReadsFailing firing for the whole run, and ended each round. Said once while held
   * (info), debug after.
   */
  #notFoundStill(d: Due, slug: string | undefined, err: unknown): true {
    const { marketId } = d;
    this.#failed.delete(marketId);
    this.#streaks.succeeded({ key: marketId, marketId, slug });
    const fields = { marketId, slug, err };
    const line =
      "held market's record still not found (404): kept held until its record reads OPEN (or, held while quoted, the market list shows it OPEN)";
    if (this.#stillNotFound.has(marketId)) {
      this.#core.log.debug(fields, line);
      return true;
    }
    this.#stillNotFound.add(marketId);
    this.#core.log.info(fields, `${line}; said once while held (debug after)`);
    return true;
  }

  /**
   * A market not held NOT_FOUND whose record is not found by the slug held (404, or another
   * market's): back under a new slug, maybe (the spec derives slugs from titles), which only the
   * market list shows. The open-market sweep reads it for this market next period (it reads it
   * otherwise only while a market is OPEN or held NOT_FOUND: a market paused, then renamed, on a bot
   * with no market OPEN was read by its old slug for the run, never seen to reopen, each 404 counted
   * as failing: a false MmMarketStatusReadsFailing). Not a failing read until the list answers
   * (listSays); the round goes on. False when there is no list to ask: a failing read.
   */
  #askList(d: Due, slug: string | undefined, err: unknown): boolean {
    if (this.#ask === undefined || this.#core.exchange.listedMarkets === undefined) return false;
    const { marketId, known } = d;
    const fields = { marketId, slug, status: known, err };
    const quiet = "held market's record not found by its slug: the market list is read for it";
    if (this.#asked.has(marketId)) {
      this.#core.log.debug(fields, quiet);
      return true;
    }
    this.#asked.set(marketId, { slug, known, err });
    // Said once: a market the list keeps showing while its record is not found is asked every round.
    if (this.#listOnly.has(marketId)) this.#core.log.debug(fields, quiet);
    else
      this.#core.log.info(
        fields,
        "held market's record not found by its slug (404): the market list is read for it (a new slug?)",
      );
    this.#ask(marketId);
    return true;
  }

  /**
   * The market list's answer for a market asked for (#askList): `listed` its record there by its id,
   * undefined when the list does not show it. Shown under a slug other than the one that was not
   * found, it has taken it (SweepList): the next round reads by it. Not shown, a market closed by
   * its status is held NOT_FOUND, as a quoted market neither listed nor found by its slug is (the
   * open-market sweep's: it reads the list for it from then on). Shown under the slug that was not
   * found, its status is taken from the list (#listWord: not a failing read), but an OPEN: a list is
   * served stale, and the sweep never holds a market on its word alone (#confirm); a market held
   * closed by a push or a record (PAUSED, say) reopened on a list from before was quoted into while
   * paused. It stays held until its record reads OPEN (the record endpoint catching up), said once
   * at info; the 404 is then a failing read (the read that reopens it fails: warned of if it lasts).
   * `stale`: the list shows it under a slug it has left (SweepSlugs: a list from before the rename,
   * its status from then too): its word is not taken, the 404 a failing read, as for a settled
   * market not shown (its status is final). Dropped when the market's status moved since.
   */
  listSays(marketId: string, listed: ListedMarketStatus | undefined, stale = false): void {
    const asked = this.#asked.get(marketId);
    if (asked === undefined) return;
    this.#asked.delete(marketId);
    const { tokens } = this.#core;
    const slug = tokens.slugOf(marketId);
    if (this.#stopped || tokens.get(tokens.tokensOf(marketId)[0] ?? "")?.market.status !== asked.known)
      return;
    if (listed !== undefined && slug !== asked.slug) return;
    const settled = SETTLED_MARKET_STATUSES.has(asked.known);
    if (listed !== undefined && (listed.status !== "OPEN" || settled)) {
      this.#listWord(marketId, slug, asked, listed);
      return;
    }
    if (listed === undefined && !stale && !settled) {
      this.#core.log.warn(
        { marketId, slug, status: asked.known, err: asked.err },
        "held market is not in the market list and its record is not found (404): held NOT_FOUND",
      );
      this.#changed(marketId, { status: NOT_FOUND_STATUS }, WHILE_CLOSED, LIST_WORD.closedNotFound);
      return;
    }
    if (listed !== undefined) this.#listedOpen(marketId, slug, asked);
    this.#streaks.failed({ key: marketId, marketId, slug }, asked.err, "read again next round");
    this.#failed.set(marketId, ++this.#failures);
  }

  /** A held market the list shows OPEN, its record a 404: kept held (listSays); said once while so. */
  #listedOpen(marketId: string, slug: string | undefined, asked: Asked): void {
    const fields = { marketId, slug, status: asked.known, listed: "OPEN" };
    const line =
      "held market's record not found by its slug, the market list shows it OPEN by its id: kept held until its record reads OPEN (a list alone does not reopen a market)";
    if (this.#listOnly.get(marketId) === "open") this.#core.log.debug(fields, line);
    else {
      this.#listOnly.set(marketId, "open");
      this.#core.log.info(fields, `${line}; said once while so`);
    }
  }

  /**
   * The list shows by its id, not OPEN (or settled: read for its payouts), a market whose record
   * was not found by the slug it gives: the record endpoint lags the list (a market just renamed)
   * or does not serve the record. The market's status was read, from the list: not a failing read
   * (counted so, it fired a false MmMarketStatusReadsFailing for a market the list shows every
   * period). Its word is taken, as the sweep takes it for a market held NOT_FOUND
   * (LIST_WORD.listedById): another status than the one held is reported; a settled market's
   * payouts there, when it is read for them. Said once at info while so (#listOnly), debug after.
   */
  #listWord(marketId: string, slug: string | undefined, asked: Asked, listed: ListedMarketStatus): void {
    const { log, positions } = this.#core;
    this.#failed.delete(marketId);
    this.#streaks.succeeded({ key: marketId, marketId, slug });
    const fields = { marketId, slug, status: asked.known, listed: listed.status };
    const line =
      "held market's record not found by its slug, the market list shows it by its id: its status taken from the list (not a failing read)";
    if (this.#listOnly.get(marketId) === "status") log.debug(fields, line);
    else {
      this.#listOnly.set(marketId, "status");
      log.info(fields, `${line}; said once while so`);
    }
    if (!SETTLED_MARKET_STATUSES.has(asked.known)) {
      if (listed.status !== asked.known) this.#changed(marketId, listed, WHILE_CLOSED, LIST_WORD.listedById);
      return;
    }
    // A settled market stays settled (a list saying otherwise is stale); read for its payouts.
    if (
      SETTLED_MARKET_STATUSES.has(listed.status) &&
      listed.payouts !== undefined &&
      positions.awaitingPayouts(marketId)
    )
      this.#changed(marketId, listed, WHILE_UNPAID, LIST_WORD.listedById);
  }
}
