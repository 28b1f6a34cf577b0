import type { TimerId } from "../core/clock.js";
import type { EngineCore } from "./engine-core.js";
import { listFeeDiffers, takeRecordFee } from "./fee-recheck.js";
import type { ListedMarketStatus, MarketRecordStatus, UnreadableListing } from "./ports.js";
import { isNotFound, LIST_KEY, ReadFailures } from "./read-failures.js";
import { SweepList } from "./sweep-list.js";
import { SweepLost } from "./sweep-lost.js";
import { LIST_WORD, NOT_FOUND_STATUS, SWEEP_HOW } from "./sweep-words.js";

/** A quoted market to read: OPEN when the round began, and its status version then. */
interface Due {
  readonly marketId: string;
  readonly slug: string | undefined;
  readonly version: number;
}

/**
 * Reads, every `marketRecheckMs` (a minute by default), the status of every market the engine holds
 * OPEN (not past its closesAt), and reports one that is not OPEN any more (`changed`: taken as the
 * push that never came, which holds the market: its quotes cancelled, no quoting). The spec says
 * most lifecycle events are not yet emitted, so a market can be PAUSED silently; the only other sign
 * of it is a placement refused `market_not_open`, and a market whose book never moves is never
 * requoted, so its quotes rested at pre-pause prices through the pause and were stale at the resume.
 * The closed-market watch then reads the held market's record until it says OPEN, which reopens it.
 * An OPEN market's fee is taken from its record only (#take): one the list shows with another fee
 * than the one held has its record read (#confirm); the list's fee alone, lagging the record, put an
 * old fee back (or lifted a fee hold) every period, its orders refused bad_signature.
 *
 * One GET /api/markets reads every status at once (`listedMarkets`); a quoted market the list does
 * not show (past its cap, left out, or its record there unreadable: skipped, not failing the list)
 * is read by slug (`marketRecord`), one at a time, those whose read failed last; one whose slug is
 * not found (404) is held too (#notFound), until its record reads OPEN (the closed-market watch)
 * or the list shows it OPEN again by its id (SweepLost.listedAgain: the list is read for it, even
 * when no market is OPEN), or shows it with another status, which it takes once its record agrees
 * (SweepLost.confirm); a market held closed before it became NOT_FOUND (the closed-market watch's)
 * is reopened by its record only, never on the list alone (SweepLost). A traded market
 * the list shows by its id under a slug other than the one held is back under a new slug (the spec
 * derives slugs from titles): it takes the new one (SweepList), which every later read of its record
 * is by, this round's included (its old slug is a 404 from then on); a slug it has left is taken
 * back only once its record by it reads, at the round's end (SweepSlugs), and a list showing one is
 * stale for that market: it is not in that list (SweepList.take). The list is read too for a
 * market held closed whose record the closed-market watch did not find by its slug (ask: renamed
 * while closed, maybe), its word handed back to the watch (`listed`). A market the
 * list says is not OPEN is held only once its record, the closed-market watch's source, agrees
 * (#confirm): a list and record that disagree
 * otherwise held and reopened it every other period; a record that cannot be read leaves the list's
 * word, and the status line says so (LIST_WORD). A failed read ends the round, as the
 * closed-market watch's do: these reads share the client's circuit breaker with the orders, cancels
 * included, and the list's and the by-slug reads are made once, no client-level retry (made again
 * next period), so a failing public market service costs that breaker one failure per read; the
 * confirm read keeps the client's retries (#confirm). None is the breaker's half-open probe
 * (MarketRead.neverProbe: the list's read neither) unless no probe went out for a bound (60 s, or the reconcile period): a
 * failing one taken as the probe re-opened the breaker, the cancels kept out with it. They are not
 * paced by the order
 * queue's rate budget: GET /api/markets and /api/markets/{slug} count in an IP bucket of their own
 * (600 a minute), not the wallet's buckets of the placements and cancels, so one list read a period
 * takes nothing from them. Reads that keep failing are warned of once (ReadFailures, watch `open`).
 * An answer is dropped for a market whose status moved while it was out (a push, a refusal: newer
 * words). Does nothing on a port without `listedMarkets` (the backtest's venue), and runs no timer
 * while no market is OPEN (nor held NOT_FOUND, nor asked for): its failing reads, the list's included, are then forgotten (the gauge
 * would otherwise say a read keeps failing that nobody makes, until the process restarts).
 */
export class OpenMarketSweep {
  readonly #core: EngineCore;
  readonly #changed: (marketId: string, record: MarketRecordStatus, how: string, said?: string) => void;
  /** A market's status version: it moves at each status the engine applies (MarketStatuses). */
  readonly #version: (marketId: string) => number;
  readonly #failures: ReadFailures;
  /** Markets absent from the list whose last read by slug failed, with the failure count then. */
  readonly #failed = new Map<string, number>();
  #failureCount = 0;
  /** Markets the list says are not OPEN while their record says OPEN (logged once while so). */
  readonly #disagreed = new Set<string>();
  /** Markets whose fee in the list is not their record's (logged once while so). */
  readonly #feeLags = new Set<string>();
  readonly #list: SweepList;
  /** Markets held NOT_FOUND the list shows by their id: reopened, or their record read first. */
  readonly #lostOnes: SweepLost;
  /** Markets held closed the closed-market watch asked the list to be read for (ask), until it answers. */
  readonly #asked = new Set<string>();
  /** The list's word on a market asked for: its record there by its id, or undefined (not shown, or `stale`). */
  readonly #listed: (marketId: string, listed: ListedMarketStatus | undefined, stale: boolean) => void;
  #timer: TimerId | undefined;
  #running = false;
  #stopped = false;

  constructor(
    core: EngineCore,
    changed: (marketId: string, record: MarketRecordStatus, how: string, said?: string) => void,
    version: (marketId: string) => number,
    listed: (marketId: string, listed: ListedMarketStatus | undefined, stale: boolean) => void = () => {},
  ) {
    this.#core = core;
    this.#changed = changed;
    this.#version = version;
    this.#listed = listed;
    this.#failures = new ReadFailures(core, "open");
    this.#list = new SweepList(core);
    this.#lostOnes = new SweepLost(core, changed, version, this.#failures);
  }

  /**
   * Starts the next round a period (marketRecheckMs) from now, when a market is OPEN (or held NOT_FOUND) and none is
   * scheduled (engine start, and each market status change). No-op after stop and on a port without
   * listedMarkets.
   */
  arm(): void {
    if (this.#stopped || this.#timer !== undefined || this.#running) return;
    if (this.#core.exchange.listedMarkets === undefined) return;
    if (this.#due().length === 0 && this.#lost().length === 0 && this.#asked.size === 0) {
      // Nothing is read until a market is OPEN again (no timer runs): no read is failing meanwhile,
      // the list's included, so the gauge does not stay up for reads nobody makes.
      this.#forget(new Set(), false);
      return;
    }
    this.#timer = this.#core.clock.setTimer(this.#core.options.marketRecheckMs, () => this.#round());
  }

  /**
   * The closed-market watch found no record by a closed market's slug: the list is read for it next
   * period (its answer to `listed`), even when no market is OPEN, as for those held NOT_FOUND.
   */
  ask(marketId: string): void {
    if (this.#stopped) return;
    this.#asked.add(marketId);
    this.arm();
  }

  /** Stops the rounds (engine stop); answers still on their way are dropped. */
  stop(): void {
    this.#stopped = true;
    if (this.#timer !== undefined) this.#core.clock.cancelTimer(this.#timer);
    this.#timer = undefined;
  }

  /** The markets held OPEN and not past their close, each once. */
  #due(): Due[] {
    const { clock, tokens } = this.#core;
    const now = clock.now();
    const due: Due[] = [];
    const seen = new Set<string>();
    for (const { market: m } of tokens.slots()) {
      if (seen.has(m.marketId)) continue;
      seen.add(m.marketId);
      if (m.status !== "OPEN" || (m.closesAtMs !== undefined && m.closesAtMs <= now)) continue;
      due.push({ marketId: m.marketId, slug: m.slug, version: this.#version(m.marketId) });
    }
    return due;
  }

  /**
   * The markets held NOT_FOUND (#notFound) and not past their close: the list is read for them too,
   * and one it shows OPEN again by its id is reopened (#sweep). Their record is read by slug only, by
   * the closed-market watch: a market back under another slug (the spec derives slugs from titles)
   * is found by its id only in the list, which gives it its new slug (SweepList).
   */
  #lost(): Due[] {
    const now = this.#core.clock.now();
    const lost: Due[] = [];
    const seen = new Set<string>();
    for (const { market: m } of this.#core.tokens.slots()) {
      if (seen.has(m.marketId)) continue;
      seen.add(m.marketId);
      if (m.status !== NOT_FOUND_STATUS || (m.closesAtMs !== undefined && m.closesAtMs <= now)) continue;
      lost.push({ marketId: m.marketId, slug: m.slug, version: this.#version(m.marketId) });
    }
    return lost;
  }

  #round(): void {
    this.#timer = undefined;
    if (this.#stopped) return;
    const due = this.#due();
    const lost = this.#lost();
    const asked = [...this.#asked];
    // Held NOT_FOUND, kept held on a 404 while listed OPEN: its confirm read is still made.
    const kept = this.#lostOnes.round(lost);
    const read = new Set([...due.map((d) => d.marketId), ...kept]);
    this.#forget(read, due.length > 0 || lost.length > 0 || asked.length > 0);
    this.#running = true;
    void this.#sweep(due, lost, asked).finally(() => {
      this.#running = false;
      this.arm();
    });
  }

  /**
   * Forgets the failures of reads no longer made: a market not in `read` (held closed, settled,
   * past its close), and the list itself when it is not read (`listRead` false).
   */
  #forget(read: ReadonlySet<string>, listRead: boolean): void {
    this.#failures.keepOnly((key) => (key === LIST_KEY ? listRead : read.has(key)));
    for (const id of this.#failed.keys()) if (!read.has(id)) this.#failed.delete(id);
    for (const id of this.#disagreed) if (!read.has(id)) this.#disagreed.delete(id);
    for (const id of this.#feeLags) if (!read.has(id)) this.#feeLags.delete(id);
  }

  async #sweep(due: readonly Due[], lost: readonly Due[], asked: readonly string[]): Promise<void> {
    const { exchange } = this.#core;
    const { listedMarkets } = exchange;
    if ((due.length === 0 && lost.length === 0 && asked.length === 0) || listedMarkets === undefined) return;
    const list = { key: LIST_KEY };
    let listed: readonly (ListedMarketStatus | UnreadableListing)[];
    try {
      listed = await listedMarkets.call(exchange);
    } catch (err) {
      this.#failures.failed(list, err, "every quoted market's status read again next period");
      return;
    }
    this.#failures.succeeded(list);
    // A quoted market whose record did not read is absent from byId: read by its slug below. A
    // market the list shows under a new slug takes it: the reads below are by the slug held now.
    const byId = this.#list.take(
      listed,
      due.map((d) => d.marketId),
    );
    // After the slugs are learned: a market asked for shown under a new one is read by it next.
    for (const id of asked) {
      this.#asked.delete(id);
      if (!this.#stopped) this.#listed(id, byId.get(id), this.#list.stale(id));
    }
    const now = (d: Due): Due => ({ ...d, slug: this.#core.tokens.slugOf(d.marketId) });
    // Held NOT_FOUND, listed by its id: OPEN there reopens one held while quoted; any other
    // status, and an OPEN of one held closed before, is confirmed by its record below (SweepLost).
    const lostListed: [Due, ListedMarketStatus][] = [];
    for (const d of lost.map(now)) {
      const listedAs = byId.get(d.marketId);
      if (listedAs?.status !== "OPEN") this.#lostOnes.notListedOpen(d.marketId);
      if (listedAs?.status === "OPEN" && this.#lostOnes.reopensOnList(d))
        this.#lostOnes.listedAgain(d, listedAs, this.#stopped);
      else if (listedAs !== undefined) lostListed.push([d, listedAs]);
    }
    const absent: Due[] = [];
    const notOpen: [Due, ListedMarketStatus][] = [];
    const feeMoved: [Due, ListedMarketStatus][] = [];
    const { marketRecord } = exchange;
    for (const d of due.map(now)) {
      const record = byId.get(d.marketId);
      if (record === undefined) absent.push(d);
      else if (record.status !== "OPEN") notOpen.push([d, record]);
      else {
        this.#disagreed.delete(d.marketId); // the list agrees with the record again
        // Another fee than the one held: its record says which is current (#confirm).
        if (marketRecord !== undefined && listFeeDiffers(this.#core.tokens, d.marketId, record.feeTakerBps))
          feeMoved.push([d, record]);
        else {
          this.#feeLags.delete(d.marketId);
          this.#take(d, { status: "OPEN" }); // not the list's fee: only a record's is taken
        }
      }
    }
    for (const [i, [d, listedAs]] of [...notOpen, ...feeMoved].entries()) {
      if (this.#stopped) return;
      if (await this.#confirm(d, listedAs)) continue;
      // A failed read ends the round (the shared breaker): the rest are held on the list's word.
      // Those OPEN there keep the fee held (#take takes no fee on the list's word).
      for (const [rest, restListed] of [...notOpen, ...feeMoved].slice(i + 1))
        this.#take(rest, restListed, LIST_WORD.unread);
      return;
    }
    // Stable: those never failed keep their order, the longest-failed go last.
    absent.sort((a, b) => (this.#failed.get(a.marketId) ?? 0) - (this.#failed.get(b.marketId) ?? 0));
    for (const d of absent) {
      if (this.#stopped || !(await this.#readOne(d))) return;
    }
    // Last: these markets are held already, the quoted ones' reads come first.
    for (const [d, listedAs] of lostListed) {
      if (this.#stopped || !(await this.#lostOnes.confirm(d, listedAs, () => this.#stopped))) return;
    }
    // A slug a market has left, shown again: its record by it says whether it is (SweepSlugs).
    await this.#list.confirmReturns(() => this.#stopped);
  }

  /**
   * The list says the market is not OPEN: its record (GET /api/markets/{slug}, what the closed-market
   * watch reopens it on) is read to confirm it before the market is held. Otherwise a list that
   * disagrees with the record (served stale after a resume, say) held the market every period and
   * the watch reopened it a period later: a cancel-all and a re-place each time. A record saying OPEN
   * leaves the market quoted (logged once at info while the two disagree). A record that cannot be
   * read leaves the list's word, and the market is held: resting quotes on a market maybe paused are
   * the risk the sweep is there for, and the watch reopens it once its record reads OPEN; its status
   * line says so (LIST_WORD). This read keeps the client's retries (not `once`): it is made only
   * when the list says not OPEN, and one blip on it would hold an OPEN market for a period (a
   * cancel-all, a halt, a reopen) in the very case it is there for, a list lagging the record.
   * A list saying OPEN with a fee other than the one held (listFeeDiffers) is read the same way, and
   * the record's fee taken (#take): a list lagging it is logged once at info while so; a failed read
   * leaves the fee held. False when the read failed.
   */
  async #confirm(d: Due, listed: ListedMarketStatus): Promise<boolean> {
    const { exchange, log } = this.#core;
    // A push or a refusal moved the status while the list was out: newer words, no read needed.
    if (this.#version(d.marketId) !== d.version) return true;
    if (exchange.marketRecord === undefined) {
      this.#take(d, listed);
      return true;
    }
    let record: MarketRecordStatus;
    try {
      record = await exchange.marketRecord({ marketId: d.marketId, slug: d.slug }, { neverProbe: true });
    } catch (err) {
      const target = { key: d.marketId, marketId: d.marketId, slug: d.slug };
      const [fee, status] = [listed.feeTakerBps, listed.status]; // OPEN: read for its fee, not taken
      const next =
        status === "OPEN" ? `the list's fee ${fee} not taken` : `held on the list's word (${status})`;
      this.#failures.failed(target, err, next);
      this.#take(d, listed, LIST_WORD.unreadable);
      return false;
    }
    if (listed.status === "OPEN") this.#feeLag(d, listed, record);
    else if (record.status === "OPEN" && !this.#stopped && !this.#disagreed.has(d.marketId)) {
      this.#disagreed.add(d.marketId);
      log.info(
        { marketId: d.marketId, slug: d.slug, listed: listed.status, record: record.status },
        "the market list says the market is not OPEN, its record says OPEN: not held (the record is what reopens a market); said once while they disagree",
      );
    }
    this.#take(d, record);
    return true;
  }

  /** The list's fee was not the one held, and the record's is not the list's: said once while so. */
  #feeLag(d: Due, listed: ListedMarketStatus, record: MarketRecordStatus): void {
    if (record.feeTakerBps === undefined || record.feeTakerBps === listed.feeTakerBps) {
      this.#feeLags.delete(d.marketId);
      return;
    }
    if (this.#stopped || this.#feeLags.has(d.marketId)) return;
    this.#feeLags.add(d.marketId);
    this.#core.log.info(
      { marketId: d.marketId, slug: d.slug, listed: listed.feeTakerBps, record: record.feeTakerBps },
      "the market list shows another feeTakerBps than the market's record: the record's is taken (the list's is read again each period); said once while they disagree",
    );
  }

  /** Reads a market the list did not show by its slug; false when the read failed. */
  async #readOne(d: Due): Promise<boolean> {
    const { exchange } = this.#core;
    if (exchange.marketRecord === undefined) return true;
    const target = { key: d.marketId, marketId: d.marketId, slug: d.slug };
    let record: MarketRecordStatus;
    try {
      record = await exchange.marketRecord(
        { marketId: d.marketId, slug: d.slug },
        { once: true, neverProbe: true },
      );
    } catch (err) {
      if (isNotFound(err)) {
        this.#failed.delete(d.marketId);
        this.#notFound(d, err);
        return true;
      }
      this.#failed.set(d.marketId, ++this.#failureCount);
      this.#failures.failed(target, err, "the list does not show it; read again next period");
      return false;
    }
    this.#failed.delete(d.marketId);
    this.#take(d, record);
    return true;
  }

  /**
   * A quoted market neither listed nor found by its slug (404: a CANCELLED market is not public,
   * say): held as if its status were NOT_FOUND_STATUS, its quotes cancelled, rather than left
   * resting on a market the exchange no longer shows. The closed-market watch then reads its record
   * every period (its failures warned of, mm_market_status_reads_failing{watch="closed"}) and
   * reopens it once the record reads OPEN.
   */
  #notFound(d: Due, err: unknown): void {
    this.#failures.succeeded({ key: d.marketId, marketId: d.marketId, slug: d.slug });
    if (this.#stopped || this.#version(d.marketId) !== d.version) return;
    this.#core.log.warn(
      { marketId: d.marketId, slug: d.slug, err },
      "quoted market is not in the market list and its record is not found (404): held, its quotes cancelled, until its record reads OPEN",
    );
    this.#changed(d.marketId, { status: NOT_FOUND_STATUS }, SWEEP_HOW, LIST_WORD.notFound);
    this.#lostOnes.heldQuoted(d.marketId);
  }

  /**
   * A market's status was read: reported when it is not OPEN and nothing moved it meanwhile.
   * `listWord` (its line's words, LIST_WORD): the record was not read (its read failed, or the round
   * ended before it) and the list's word is taken; no read answered, so no failure is cleared.
   * An OPEN record's fee is taken (takeRecordFee), a read record's only: a list's OPEN entry comes
   * without its fee, or with `listWord` (a list lagging the record undid it every period: review22 r3).
   */
  #take(d: Due, record: MarketRecordStatus, listWord?: string): void {
    if (listWord === undefined)
      this.#failures.succeeded({ key: d.marketId, marketId: d.marketId, slug: d.slug });
    if (this.#stopped) return;
    if (record.status === "OPEN") {
      if (listWord === undefined) takeRecordFee(this.#core, d.marketId, record.feeTakerBps, SWEEP_HOW);
      return;
    }
    // A push or a refusal that moved the status while the read was out is newer than the answer.
    if (this.#version(d.marketId) !== d.version) return;
    this.#changed(d.marketId, record, SWEEP_HOW, listWord);
  }
}
