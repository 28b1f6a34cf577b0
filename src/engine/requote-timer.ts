import type { Clock, TimerId } from "../core/clock.js";
import type { Side } from "../core/types.js";
import type { TokenTable } from "./engine-tokens.js";

/** Shortest time-driven requote period, ms (0 aside: off). */
export const REQUOTE_INTERVAL_MIN_MS = 100;
/** Longest time-driven requote period, ms: an hour. */
export const REQUOTE_INTERVAL_MAX_MS = 3_600_000;
/**
 * Longest wait, ms, before the timer steps again a token whose placements keep being refused
 * outright (or the period, when longer): a refusal that persists costs one counted error this often.
 */
export const REFUSED_BACKOFF_MAX_MS = 30_000;

/** A quote level whose placement was refused outright: when the timer steps it, and the spacing so far. */
interface Refusal {
  /** Time between the timer's steps of the token for this run of refusals, ms (doubling). */
  spacingMs: number;
  /** Stepped by the first period at or after this (undefined: stepped, its answers awaited). */
  dueAtMs: number | undefined;
  /** The token's TokenSlot.fillsSeen when the run (or its last refusal's wait) began. */
  readonly events: number;
}

/**
 * What is wrong with a value of `engine.requoteIntervalMs`, or undefined when it is usable: 0 (off)
 * or an integer from {@link REQUOTE_INTERVAL_MIN_MS} to {@link REQUOTE_INTERVAL_MAX_MS}. The one
 * rule for the daemon's config (the setting's format) and the engine's options (a backtest config,
 * a scenario, a sweep's base config), so a period refused live is refused in a backtest too.
 * @example requoteIntervalProblem(1) // "must be 0 or ≥ 100, got 1: 0 turns it off; …"
 */
export function requoteIntervalProblem(value: unknown): string | undefined {
  if (typeof value !== "number" || !Number.isSafeInteger(value)) {
    return `must be an integer (ms), got ${typeof value === "number" ? String(value) : `a ${typeof value}`}`;
  }
  if (value === 0) return undefined;
  if (value < REQUOTE_INTERVAL_MIN_MS) {
    // A period this short runs the clock-bound strategies far more often than their quotes can
    // move by a tick: strategy runs for nothing, and a backtest tuned on it would not run live.
    return (
      `must be 0 or ≥ ${REQUOTE_INTERVAL_MIN_MS}, got ${value}: 0 turns it off; a shorter period runs ` +
      "the time-bound strategies more often than any quote can usefully move"
    );
  }
  if (value > REQUOTE_INTERVAL_MAX_MS) return `must be ≤ ${REQUOTE_INTERVAL_MAX_MS} (an hour), got ${value}`;
  return undefined;
}

/**
 * Time-driven requotes (`engine.requoteIntervalMs`). Quoting steps run on events — book changes,
 * fills, order answers, state changes — but a strategy that reads the clock (avellaneda-stoikov's
 * T − t to a market's close) quotes something else as time passes on a quiet book, with no event to
 * say so: its quotes would go stale in time until the next one. Every `intervalMs`, each token
 * whose last step read the clock (its QuoteMemo says so) is stepped again at the new time; the step runs the strategy at the current time, and the order manager's
 * tolerance decides whether its quotes moved enough to be sent (most such steps send nothing).
 * σ alone does not bind a token to the timer: the estimator has no decay in time and moves only on
 * a book frame (strategies/volatility.ts), and every book frame steps its token, so a step that read
 * σ but not the clock (A–S with horizonSeconds and an estimated σ) would fire the timer every
 * period without ever stepping the token.
 *
 * Only tokens whose memo would not hold are stepped: a memo hit reports the remembered step's risk
 * decisions to the listener again, so stepping a token that read neither (bands) would count its
 * decisions anew for nothing. No such token ever arms the timer either: it is set only when a step
 * that read the clock is remembered (`want`), and lapses once no token's remembered step did,
 * so a bands-only engine has no timer at all (backtests of it fire exactly the timers they did).
 * A token whose last step sent intents, or whose strategy threw, has no remembered step and is not
 * stepped here: the answers to what it sent step it (and the step after them is remembered) — an
 * accepted placement always, a cancel's answer when that step read the clock (in a replay our own
 * cancel never comes back as a book delta, so a step that only cancelled would otherwise leave the
 * token off the timer: QuoteMemo.clockedUnremembered) — and a placement refused outright keeps its
 * token on the timer (`refused`): the next period steps it at the new time, which places the level
 * again. It used to wait for the next event, which on a quiet book left the level empty for as long
 * as the book stayed quiet. A refusal that persists (insufficient_funds, a tick mismatch, a wrong
 * key) would be re-sent once a period, each counted towards the wallet's error-rate halt: one bad
 * level tripped it in ~11 s on a quiet book, and again after each halt. So each further refusal in a
 * row doubles the wait before the timer steps the token again, from one period up to
 * {@link REFUSED_BACKOFF_MAX_MS} or the period when longer (1, 2, 4 … 30 s at a 1 s period), and the run ends (the next refusal is stepped at the next
 * period again) with an accepted placement of that level (`accepted`), a fill of the token (which
 * may be what cures it: TokenSlot.fillsSeen) or a step remembered. Not with a book change: every
 * book frame steps its token itself, and a book netted of our own orders still changed with them
 * (a cancel seen in the feed before its answer, a placement before the feed shows it), so our own
 * requotes of the other side restarted the run and the halt tripped anyway. Runs are per (side, level): on a token whose quotes move on the clock each step
 * re-places the other side, accepted, and a run ended by any accepted placement of the token had a
 * bid the wallet cannot fund re-sent every period again, tripping the halt it is there to spare. An
 * active book still re-sends it on every frame, as it always did: those steps are the events', not
 * the timer's.
 * A throwing strategy is not stepped again on the timer: it would log an error every period.
 * One timer for the whole engine, on the injected Clock: deterministic on a SimClock.
 */
export class RequoteTimer {
  readonly #clock: Clock;
  readonly #intervalMs: number;
  readonly #tokens: TokenTable;
  readonly #requote: (tokenId: string) => void;
  #timer: TimerId | undefined;
  #stopped = false;
  /** Per token, its levels (`side:level`) whose placements were refused outright, in runs (`refused`). */
  readonly #refused = new Map<string, Map<string, Refusal>>();

  /** `intervalMs` 0: off (quoting on events alone). */
  constructor(clock: Clock, intervalMs: number, tokens: TokenTable, requote: (tokenId: string) => void) {
    this.#clock = clock;
    this.#intervalMs = intervalMs;
    this.#tokens = tokens;
    this.#requote = requote;
  }

  /** A step that read the clock was remembered: the timer runs (if not already set). */
  want(): void {
    if (this.#timer !== undefined || this.#stopped || this.#intervalMs <= 0) return;
    this.#timer = this.#clock.setTimer(this.#intervalMs, () => this.#fire());
  }

  /**
   * A placement on the token's (side, level) was refused outright: when the step that sent it read
   * the clock and is not remembered (its memo would have the timer step it), the timer steps the
   * token at the next period, or later the longer the level's run of refusals. Nothing once stopped:
   * a placement sent before the stop and refused after it started a run of its own, shown as a
   * level backed off (`backedOff`) on an engine that quotes no more, until a later step of it.
   */
  refused(tokenId: string, side: Side, level: number): void {
    if (this.#stopped) return;
    const slot = this.#tokens.get(tokenId);
    if (slot?.memo.clockedUnremembered !== true || this.#intervalMs <= 0) return;
    let runs = this.#refused.get(tokenId);
    if (runs === undefined) {
      runs = new Map();
      this.#refused.set(tokenId, runs);
    }
    const key = `${side}:${level}`;
    let last = runs.get(key);
    // A fill since may have cured it (a sale frees funds): the run starts over. A book frame does
    // not: it steps the token itself (the re-send is the frame's, not the timer's), and our own
    // orders moving in and out of the book showed as such frames, restarting the run each time.
    if (last !== undefined && last.events !== slot.fillsSeen) last = undefined;
    // Not stepped since the last refusal (another placement of the same step, or of an event's
    // step: the other side's accepted answer steps the token too): its wait stands. Only the answer
    // to the timer's own step doubles it.
    if (last?.dueAtMs === undefined) {
      const cap = Math.max(REFUSED_BACKOFF_MAX_MS, this.#intervalMs);
      const spacingMs = last === undefined ? this.#intervalMs : Math.min(2 * last.spacingMs, cap);
      // From the period the refused step ran in (less half a period: the answer's latency), so the
      // token is stepped `spacingMs` after the step that was refused.
      const dueAtMs = this.#clock.now() + spacingMs - this.#intervalMs / 2;
      runs.set(key, { spacingMs, dueAtMs, events: slot.fillsSeen });
    }
    this.want();
  }

  /**
   * A placement on the token's (side, level) was accepted: that level's run of refusals is over,
   * and its next refusal is stepped again at the next period. Other levels' runs go on.
   */
  accepted(tokenId: string, side: Side, level: number): void {
    const runs = this.#refused.get(tokenId);
    if (runs === undefined) return;
    runs.delete(`${side}:${level}`);
    if (runs.size === 0) this.#refused.delete(tokenId);
  }

  /**
   * Per token, how many of its levels the back-off holds empty: runs whose next step is
   * still the timer's to make (not stepped since their last refusal), on a token whose runs are
   * still alive (no step remembered since, no fill since the run began: either ends the wait, the
   * fill by stepping the token itself). Read at scrape time (`mm_quote_levels_backed_off`); a
   * busy book re-sends such a level on its own frames meanwhile, as it always did.
   */
  backedOff(): Map<string, number> {
    const out = new Map<string, number>();
    for (const [tokenId, runs] of this.#refused) {
      const slot = this.#tokens.get(tokenId);
      if (slot?.memo.clockedUnremembered !== true) continue;
      let n = 0;
      for (const r of runs.values()) {
        if (r.dueAtMs !== undefined && r.events === slot.fillsSeen) n++;
      }
      if (n > 0) out.set(tokenId, n);
    }
    return out;
  }

  /** Clears the timer for good (the engine stops). */
  stop(): void {
    this.#stopped = true;
    this.#refused.clear();
    if (this.#timer !== undefined) this.#clock.cancelTimer(this.#timer);
    this.#timer = undefined;
  }

  #fire(): void {
    this.#timer = undefined;
    const now = this.#clock.now();
    let bound = false;
    for (const slot of this.#tokens.slots()) {
      const memo = slot.memo;
      const runs = this.#refused.get(slot.market.tokenId);
      // A step since was remembered: the runs of refusals are over.
      if (runs !== undefined && !memo.clockedUnremembered) this.#refused.delete(slot.market.tokenId);
      else if (runs !== undefined && refusedStep(runs, now, this.#requote, slot.market.tokenId)) {
        bound = true;
        continue;
      }
      if (!memo.timeBound) continue;
      bound = true;
      if (memo.movedBy(now)) this.#requote(slot.market.tokenId);
    }
    // Steps that send quotes forget their memo until the answers' steps remember one again (which
    // calls want): tokens still bound keep the period meanwhile.
    if (bound) this.want();
  }
}

/**
 * Steps a token with runs of refusals once the earliest wait is over; true while a run still waits
 * (the token stays bound to the timer), false when every run was stepped and its answers are
 * awaited (the token is as its memo says). The step re-sends each empty level of the token, so
 * every run counts as stepped: the next refusal of any doubles its wait.
 */
function refusedStep(
  runs: ReadonlyMap<string, Refusal>,
  now: number,
  requote: (tokenId: string) => void,
  tokenId: string,
): boolean {
  let due = Number.POSITIVE_INFINITY;
  for (const r of runs.values()) if (r.dueAtMs !== undefined && r.dueAtMs < due) due = r.dueAtMs;
  if (due === Number.POSITIVE_INFINITY) return false;
  if (due > now) return true;
  for (const r of runs.values()) r.dueAtMs = undefined;
  requote(tokenId);
  return true;
}
