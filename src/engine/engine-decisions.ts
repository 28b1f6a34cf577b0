import type { BookState } from "../book/book-state.js";
import type { Logger } from "../observability/logger.js";
import type { RiskDecision, RiskReason } from "../risk/decision.js";
import type { EngineEvent } from "./engine-events.js";
import { ALL_QUOTES, allIn, countUnjudged, decisionKey, describe, unjudged } from "./judged-quotes.js";
import { OversizeNotice } from "./oversize-notice.js";
import type { ResyncGroup } from "./resync-group.js";

/** Gates of a whole market: one of its tokens speaks for it in the log (its start and its end). */
const MARKET_GATES: ReadonlySet<RiskReason> = new Set(["market_not_open", "market_unquotable"]);

type Level = "info" | "debug";

/** A token's standing decisions as last logged: their keys, and whether an operator saw them. */
interface Standing {
  /** decisionKey of each decision. */
  readonly keys: ReadonlySet<string>;
  /** The standing decisions: the step's, and limits kept on quotes it did not desire. */
  readonly decisions: readonly RiskDecision[];
  /** Logged at info or above (or owned a market gate's line): its end is logged at info too. */
  readonly shown: boolean;
  /** The market whose market_not_open gate the token holds, if any. */
  readonly gatedMarket: string | undefined;
  /** The token was the first to hold that gate: it speaks for the market. */
  readonly ownsMarket: boolean;
  /** Every decision acts on a single desired quote (a limit, not a gate). */
  readonly quotesOnly: boolean;
  /**
   * The limits that stood before a book gate the resync group tells (a reconnect's member): the
   * gate's end resumes them, so only what is new or ended after it is logged.
   */
  readonly held: Standing | undefined;
}

/** The tokens holding one market's market_not_open gate; `announced` when its event logged it. */
interface MarketGate {
  readonly holders: Set<string>;
  announced: boolean;
}

/**
 * Logs risk decisions with their reasons without flooding: the quoting step runs on every book
 * update and a held limit (reduce-only, a stale book) would repeat the same decision hundreds of times
 * a second. Per scope (a token, a market, the wallet) the log says what changed: a new set of
 * decisions is logged once, its disappearance once ("risk: cleared"). The listener still receives
 * every decision, for counting (metrics see exactly what they saw before).
 *
 * What an operator reads as news, at info: a book that resyncs or goes stale after it had been
 * synced, once (the event that enforced it and the quoting step that follows are one line), and its
 * recovery once; a market gate once per market (its event, or the first of its tokens to hold it),
 * and its end once. Every book waits for its first snapshot at start: that wait, and its end, are
 * routine and go to debug. Books that leave `synced` together (a reconnect's resubscribe, a silent
 * connection) are told by the ResyncGroup in one line, and their recovery in one: their per-token
 * book gate lines, and the end of those, go to debug; the limits a member held before its gate
 * (reduce-only, a clipped size) are held through it, and after it only a limit that is new or
 * changed, or one that ended, is logged (the same limit again would be one line per token per
 * reconnect). A book gate told at info (one book's gap, a crossed book) replaces the standing
 * limits as before: the lines after it say what stands once the book is back.
 *
 * A token has two channels: the guard's decisions on its desired quotes (`step`, info), and the
 * in-flight fit's (`inFlight`, debug). The latter come and go with every cancel-replace near a
 * limit (a placement waits for the cancel it replaces); kept apart, they never make the guard's
 * standing decisions (reduce-only, a blocked side) be logged again.
 */
export class DecisionLog {
  readonly #log: Logger;
  readonly #emit: (e: EngineEvent) => void;
  readonly #last = new Map<string, Standing>();
  readonly #lastInFlight = new Map<string, string>();
  /** Whether a token's book has had a snapshot (been synced) at least once (TokenSlot.everSynced). */
  readonly #everSynced: (tokenId: string) => boolean;
  /** A token decision an event logged, which the token's next step must not log again. */
  readonly #evented = new Map<string, { sig: string; shown: boolean }>();
  readonly #markets = new Map<string, MarketGate>();
  readonly #group: ResyncGroup | undefined;
  readonly #slugOf: (marketId: string) => string | undefined;
  readonly #oversize: OversizeNotice;

  /**
   * @param everSynced whether a token's book has had its first snapshot: before it, the token's wait
   *   (book_resyncing, book_stale) is routine and logged at debug.
   * @param group tells connection-wide resyncs as one episode (the engine's); without it each book
   *   is logged on its own.
   * @param slugOf a market's slug, logged beside its id so a line names the market as the operator
   *   configured it; without it lines carry the id alone.
   */
  constructor(
    log: Logger,
    emit: (e: EngineEvent) => void,
    everSynced: (tokenId: string) => boolean,
    group?: ResyncGroup,
    slugOf: (marketId: string) => string | undefined = () => undefined,
  ) {
    this.#log = log;
    this.#emit = emit;
    this.#everSynced = everSynced;
    this.#group = group;
    this.#slugOf = slugOf;
    this.#oversize = new OversizeNotice(log, emit, slugOf);
  }

  /**
   * A book's new state, before the decision it may cause (engine.onBookState): a connection-wide
   * resync joins the group's episode, a quotable book leaves it.
   */
  bookState(state: BookState): void {
    this.#group?.onState(state, this.#everSynced(state.tokenId));
  }

  /** A book no longer watched (its market settled): it leaves the group's episode as if back. */
  bookRetired(tokenId: string): void {
    this.#group?.forget(tokenId);
  }

  /** Cancels the group's pending check (engine stop). */
  stop(): void {
    this.#group?.stop();
  }

  /**
   * The guard's decisions of one quoting step of `tokenId` (possibly none). `judged` is false when
   * the strategy desired no quote (a one-sided book moment): a limit on single quotes then had
   * nothing to act on, which says nothing about whether it still holds, so it keeps standing (a
   * limit below the strategy's size would otherwise be logged again after every such moment). A
   * price fault (isPriceFault: off the grid, through the touch, crossing our own) is no limit: it
   * ends with its quote.
   */
  step(
    tokenId: string,
    decisions: readonly RiskDecision[],
    now: number,
    judged: boolean | number = true,
  ): void {
    for (const d of decisions) this.#emit({ type: "decision", atMs: now, decision: d });
    // A size maxSize drops outright is never quoted: told once per token and size, at warn.
    this.#oversize.see(decisions, now);
    const last = this.#last.get(tokenId);
    // After a group-told gate, its end gives back the limits it held (no allocation otherwise).
    const prev = last?.held === undefined ? last : this.#resume(tokenId, last, decisions);
    const evented = this.#evented.get(tokenId);
    if (evented !== undefined) this.#evented.delete(tokenId);
    if (prev === undefined && decisions.length === 0) return;
    const mask = judged === true ? ALL_QUOTES : judged === false ? 0 : judged;
    // A standing limit on a quote this step did not desire had nothing to act on: it still stands.
    const carried = prev === undefined || mask === ALL_QUOTES ? 0 : countUnjudged(prev.decisions, mask);
    if (prev !== undefined && decisions.length + carried === 0) {
      this.#last.delete(tokenId);
      this.#leaveMarket(tokenId, prev.gatedMarket);
      const fields =
        prev.gatedMarket === undefined ? { tokenId } : { tokenId, ...this.#market(prev.gatedMarket) };
      this.#log[prev.shown ? "info" : "debug"](fields, "risk: cleared");
      return;
    }
    const sig = evented === undefined ? undefined : signature(decisions);
    if (
      prev !== undefined &&
      decisions.length + carried === prev.decisions.length &&
      allIn(decisions, prev)
    ) {
      // The same decisions, but an event has just logged them at info (a resync right after the
      // first snapshot, in one flush): their end must be logged at info too.
      if (evented?.sig === sig && evented?.shown === true && !prev.shown)
        this.#last.set(tokenId, { ...prev, shown: true });
      return;
    }
    const all = carried === 0 ? decisions : [...decisions, ...unjudged(prev?.decisions ?? [], mask)];
    const keys = new Set<string>();
    for (const d of all) keys.add(decisionKey(d));
    const gatedMarket = decisions.find((d) => MARKET_GATES.has(d.reason))?.marketId;
    const kept = gatedMarket !== undefined && prev?.gatedMarket === gatedMarket;
    if (!kept && prev?.gatedMarket !== undefined) {
      // The market reopened while the token keeps another decision (no shares to sell, a cap): the
      // token that spoke for the gate still says it ended.
      if (prev.ownsMarket) this.#log.info({ tokenId, ...this.#market(prev.gatedMarket) }, "risk: cleared");
      this.#leaveMarket(tokenId, prev.gatedMarket);
    }
    // The first token to hold a market's gate speaks for the market: it logs the gate (unless the
    // market's event already did) and its end.
    const ownsMarket = kept ? prev.ownsMarket : gatedMarket !== undefined && this.#join(gatedMarket, tokenId);
    const speaks =
      ownsMarket && !kept && gatedMarket !== undefined && !this.#markets.get(gatedMarket)?.announced;
    let shown = ownsMarket;
    if (evented !== undefined && evented.sig === sig) shown ||= evented.shown;
    else {
      // Only what is new is news: a decision already standing was logged when it appeared.
      for (const d of decisions) {
        if (prev?.keys.has(decisionKey(d)) === true) continue;
        const level = MARKET_GATES.has(d.reason) ? (speaks ? "info" : "debug") : this.#level(d);
        this.#write(d, level);
        if (level === "info") shown = true;
      }
    }
    if (prev !== undefined) {
      // What stood and ended while the rest stands (a market gate's end is told above).
      const ended: string[] = [];
      let stays = false;
      for (const d of prev.decisions) {
        const k = decisionKey(d);
        if (keys.has(k)) stays = true;
        else if (!MARKET_GATES.has(d.reason)) ended.push(describe(d));
      }
      if (stays) shown ||= prev.shown;
      // A whole set replaced (a gate over a limit, a limit after a gate) reads from its new lines.
      if (stays && ended.length > 0) {
        this.#log[prev.shown ? "info" : "debug"](
          { tokenId, ended, standing: all.length },
          "risk: partly cleared",
        );
      }
    }
    const quotesOnly = all.every((d) => d.scope === "quote");
    const held = this.#holds(decisions, prev);
    this.#last.set(tokenId, { keys, decisions: all, shown, gatedMarket, ownsMarket, quotesOnly, held });
  }

  /**
   * The limits a new standing set holds through its gate: when it is one book gate the resync
   * group tells (logged at debug), the limits standing before it (or those its previous group gate
   * held, a resyncing book going stale). Only on a change of the set, never per quoting step.
   */
  #holds(decisions: readonly RiskDecision[], prev: Standing | undefined): Standing | undefined {
    if (prev === undefined || decisions.length !== 1) return undefined;
    const d = decisions[0];
    if (d === undefined || d.scope !== "token" || d.tokenId === undefined) return undefined;
    if (d.reason !== "book_resyncing" && d.reason !== "book_stale") return undefined;
    if (!this.#everSynced(d.tokenId) || this.#group?.has(d.tokenId) !== true) return undefined;
    if (prev.held !== undefined) return prev.held;
    return prev.quotesOnly ? prev : undefined;
  }

  /**
   * A step after a group-told gate that held limits: unless the gate still stands (or another
   * gate follows it), the gate ended quietly (the group tells the recovery) and the held limits
   * are the standing set again; the step is then judged against them. A gate that was told at info
   * after all (a gap on the book once the episode let it go) keeps today's replacement.
   */
  #resume(tokenId: string, prev: Standing, decisions: readonly RiskDecision[]): Standing {
    const held = prev.held;
    if (held === undefined) return prev;
    for (const d of decisions) if (d.scope !== "quote") return prev;
    if (prev.shown) {
      const dropped = { ...prev, held: undefined };
      this.#last.set(tokenId, dropped);
      return dropped;
    }
    this.#log.debug({ tokenId, limitsHeld: held.decisions.length }, "risk: cleared");
    this.#last.set(tokenId, held);
    return held;
  }

  /** The in-flight fit's decisions of one quoting step of `tokenId` (possibly none). */
  inFlight(tokenId: string, decisions: readonly RiskDecision[], now: number): void {
    const last = this.#lastInFlight;
    if (decisions.length === 0) {
      if (last.delete(tokenId)) this.#log.debug({ tokenId }, "risk: in-flight cleared");
      return;
    }
    for (const d of decisions) this.#emit({ type: "decision", atMs: now, decision: d });
    // A size maxSize drops outright is never quoted: told once per token and size, at warn.
    this.#oversize.see(decisions, now);
    const sig = signature(decisions);
    if (last.get(tokenId) === sig) return;
    last.set(tokenId, sig);
    for (const d of decisions) this.#write(d, "debug");
  }

  /**
   * A decision taken on an event (kill switch, platform frozen, market paused, book state): logged
   * (a book's first wait at debug); a token's is not logged again by the step that follows it.
   */
  event(d: RiskDecision, now: number): void {
    this.#emit({ type: "decision", atMs: now, decision: d });
    const level = this.#level(d);
    this.#write(d, level);
    if (d.scope === "token" && d.tokenId !== undefined) {
      this.#evented.set(d.tokenId, { sig: signature([d]), shown: level === "info" });
    } else if (d.scope === "market" && d.marketId !== undefined && MARKET_GATES.has(d.reason)) {
      const gate = this.#markets.get(d.marketId);
      if (gate === undefined) this.#markets.set(d.marketId, { holders: new Set(), announced: true });
      else gate.announced = true;
    }
  }

  /**
   * Debug for a book's wait for its first snapshot (routine at every start) and for a book the
   * resync group tells with the others of its connection, else info.
   */
  #level(d: RiskDecision): Level {
    const waiting = d.reason === "book_resyncing" || d.reason === "book_stale";
    if (!waiting || d.tokenId === undefined) return "info";
    return !this.#everSynced(d.tokenId) || this.#group?.has(d.tokenId) === true ? "debug" : "info";
  }

  /** Adds `tokenId` to the holders of `marketId`'s gate; true when it is the first. */
  #join(marketId: string, tokenId: string): boolean {
    let gate = this.#markets.get(marketId);
    if (gate === undefined) {
      gate = { holders: new Set(), announced: false };
      this.#markets.set(marketId, gate);
    }
    const first = gate.holders.size === 0;
    gate.holders.add(tokenId);
    return first;
  }

  /** Removes `tokenId` from the holders of `marketId`'s gate; the last one out ends it. */
  #leaveMarket(tokenId: string, marketId: string | undefined): void {
    if (marketId === undefined) return;
    const gate = this.#markets.get(marketId);
    if (gate === undefined) return;
    gate.holders.delete(tokenId);
    if (gate.holders.size === 0) this.#markets.delete(marketId);
  }

  /** A market's log fields: its id, and its slug when known. */
  #market(marketId: string): { marketId: string; slug: string | undefined } {
    return { marketId, slug: this.#slugOf(marketId) };
  }

  #write(d: RiskDecision, level: Level): void {
    const fields = {
      reason: d.reason,
      action: d.action,
      scope: d.scope,
      tokenId: d.tokenId,
      marketId: d.marketId,
      slug: d.marketId === undefined ? undefined : this.#slugOf(d.marketId),
      side: d.side,
      // Not `level`: pino's own level field would be overwritten by the quote's band number.
      quoteLevel: d.level,
      ...d.detail,
    };
    // Wallet and market gates stop quoting broadly: warn. A book's gate after its first snapshot
    // (a gap, a silent feed) and single quotes trimmed are info; a book's first wait is debug.
    if (d.action === "cancel" && (d.scope === "wallet" || d.scope === "market")) {
      this.#log.warn(fields, `risk: ${d.reason}`);
    } else this.#log[level](fields, `risk: ${d.reason}`);
  }
}

function signature(decisions: readonly RiskDecision[]): string {
  let s = "";
  for (const d of decisions) s += `${decisionKey(d)};`;
  return s;
}
