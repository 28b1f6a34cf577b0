import type { Clock, TimerId } from "../core/clock.js";
import type { TokenTable } from "./engine-tokens.js";

/** Shortest time-driven requote period, ms (0 aside: off). */
export const REQUOTE_INTERVAL_MIN_MS = 100;
/** Longest time-driven requote period, ms: an hour. */
export const REQUOTE_INTERVAL_MAX_MS = 3_600_000;

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
 * as the book stayed quiet; a refusal that persists is re-sent once a period (an active book re-sends
 * it on every frame anyway), each counted towards the error-rate halt, which stops the repetition.
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
  /** Tokens a placement of which was refused outright since the last period (`refused`). */
  readonly #refused = new Set<string>();

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
   * A placement of the token was refused outright: when the step that sent it read the clock and is
   * not remembered (its memo would have the timer step it), the next period steps the token.
   */
  refused(tokenId: string): void {
    if (this.#tokens.get(tokenId)?.memo.clockedUnremembered !== true) return;
    this.#refused.add(tokenId);
    this.want();
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
      // Still as the refusal left it (no step since remembered one): stepped at the new time.
      if (this.#refused.delete(slot.market.tokenId) && memo.clockedUnremembered) {
        bound = true;
        this.#requote(slot.market.tokenId);
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
