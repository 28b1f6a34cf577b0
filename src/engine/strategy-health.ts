import { type Clock, monotonicNow } from "../core/clock.js";
import { MmError } from "../core/errors.js";
import type { Logger } from "../observability/logger.js";
import type { EngineEvent } from "./engine-events.js";

/** Why a strategy call gave no quote: it threw, or returned something that is not an array of quotes. */
export type StrategyFailure = "threw" | "output_invalid";

/** How often, at most, a failing token or a slow strategy writes a line while it goes on (monotonic ms). */
export const STRATEGY_NOTICE_MS = 60_000;

/**
 * Distinct error messages of one failing episode logged each on their own; past these, messages
 * are only counted (a strategy that puts a price in its message would otherwise log every step).
 */
const MAX_MESSAGES = 4;

/**
 * A token's failing episode: from its first failure until a success with no failure in the
 * STRATEGY_NOTICE_MS before it. A strategy that fails on some book states and not others fails and
 * succeeds by turns as the book flips; each flip is not an episode of its own.
 */
interface Failing {
  /** Whether the last call failed. */
  failing: boolean;
  /** Failures since the episode began. */
  failures: number;
  /** Failures since the last line (not logged on their own). */
  suppressed: number;
  /** Monotonic time of the episode's first failure, of its last failure and of its last line. */
  readonly sinceMono: number;
  lastFailMono: number;
  lastLineMono: number;
  /** Successes after a failure in this episode. */
  recoveries: number;
  /** The kind of the episode's last line: a recovery told is followed by the next failure's line. */
  told: "failed" | "recovered";
  /** The messages logged in this episode (at most MAX_MESSAGES). */
  readonly messages: Set<string>;
}

/** A strategy whose calls took longer than the threshold, since its last line. */
interface Slow {
  lastLineMono: number;
  slowCalls: number;
  maxMs: number;
  maxTokenId: string;
}

/**
 * Throttles what a misbehaving strategy writes to the log, and reports every occurrence as an
 * event (the metrics count them). A strategy runs on every quoting step: one that throws on each
 * would log at the quoting rate, per token.
 * - Failures, per token: the first of an episode (until a success a minute after its last failure)
 *   at error with the error and its stack, and each new message of the episode once (at most
 *   MAX_MESSAGES); the rest are counted, and summed up at error at most every STRATEGY_NOTICE_MS
 *   while they go on (`strategy still failing: no quote`); the first success after them is told at
 *   info (`strategy recovered`, with the episode's count), and so is the first failure after that.
 *   A strategy failing and quoting by turns (on some book states only) is one episode: its further
 *   recoveries and relapses are counted, told at most every STRATEGY_NOTICE_MS.
 * - Slow calls, per strategy (its cost is the event loop's, not one token's): the first at warn,
 *   then at most one line every STRATEGY_NOTICE_MS with the count and the slowest since the last.
 * Time is the engine clock's monotonic reading: a wall-clock step neither floods nor silences it.
 */
export class StrategyHealth {
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #emit: (e: EngineEvent) => void;
  /** Calls taking longer than this (ms, monotonic) are slow. */
  readonly slowMs: number;
  readonly #failing = new Map<string, Failing>();
  readonly #slow = new Map<string, Slow>();

  constructor(clock: Clock, log: Logger, emit: (e: EngineEvent) => void, slowMs: number) {
    this.#clock = clock;
    this.#log = log;
    this.#emit = emit;
    this.slowMs = slowMs;
  }

  /** The engine clock's monotonic reading, what call durations are measured on. */
  mono(): number {
    return monotonicNow(this.#clock);
  }

  /**
   * A call of `strategy` for the token gave quotes. The first success after failures is told
   * (`strategy recovered`); a recovery after a relapse only once STRATEGY_NOTICE_MS passed since the
   * episode's last line. A minute without failure ends the episode (forgotten).
   */
  succeeded(tokenId: string, strategy: string): void {
    if (this.#failing.size === 0) return;
    const f = this.#failing.get(tokenId);
    if (f === undefined) return;
    const mono = this.mono();
    if (!f.failing) {
      if (mono - f.lastFailMono >= STRATEGY_NOTICE_MS) this.#failing.delete(tokenId);
      return;
    }
    f.failing = false;
    if (f.recoveries++ > 0 && mono - f.lastLineMono < STRATEGY_NOTICE_MS) return;
    f.told = "recovered";
    f.lastLineMono = mono;
    const failingMs = mono - f.sinceMono;
    this.#log.info(
      { tokenId, strategy, failures: f.failures, recoveries: f.recoveries, failingMs },
      "strategy recovered",
    );
  }

  /**
   * A call of `strategy` for the token failed with `err` at `atMs` (the engine clock's time): told
   * when it begins an episode, follows a recovery told, or brings a new message; else counted and
   * summed up at most every STRATEGY_NOTICE_MS.
   */
  failed(tokenId: string, strategy: string, err: unknown, atMs: number): void {
    const reason: StrategyFailure =
      err instanceof MmError && err.code === "strategy_output_invalid" ? "output_invalid" : "threw";
    this.#emit({ type: "strategy_failed", atMs, tokenId, strategy, reason });
    const mono = this.mono();
    const message = messageOf(err);
    let f = this.#failing.get(tokenId);
    // Quiet a minute since its last failure: what follows is a new episode.
    if (f !== undefined && !f.failing && mono - f.lastFailMono >= STRATEGY_NOTICE_MS) f = undefined;
    if (f === undefined) {
      f = {
        failing: true,
        failures: 0,
        recoveries: 0,
        suppressed: 0,
        sinceMono: mono,
        lastFailMono: mono,
        lastLineMono: mono,
        told: "failed",
        messages: new Set(),
      };
      this.#failing.set(tokenId, f);
    }
    f.failing = true;
    f.failures++;
    f.lastFailMono = mono;
    const news = !f.messages.has(message) && f.messages.size < MAX_MESSAGES;
    if (news || f.told === "recovered") {
      if (news) f.messages.add(message);
      f.told = "failed";
      f.lastLineMono = mono;
      f.suppressed = 0;
      this.#log.error({ err, tokenId, strategy, failures: f.failures }, "strategy failed: no quote");
      return;
    }
    f.suppressed++;
    if (mono - f.lastLineMono < STRATEGY_NOTICE_MS) return;
    this.#log.error(
      {
        tokenId,
        strategy,
        failures: f.failures,
        recoveries: f.recoveries,
        suppressed: f.suppressed,
        failingMs: mono - f.sinceMono,
        lastError: message,
      },
      "strategy still failing: no quote",
    );
    f.lastLineMono = mono;
    f.suppressed = 0;
  }

  /** A call of `strategy` for the token took `tookMs` (monotonic): counted and told when slow. */
  timed(tokenId: string, strategy: string, tookMs: number, atMs: number): void {
    if (!(tookMs > this.slowMs)) return;
    this.#emit({ type: "strategy_slow", atMs, tokenId, strategy, tookMs });
    const mono = this.mono();
    const s = this.#slow.get(strategy);
    if (s !== undefined && mono - s.lastLineMono < STRATEGY_NOTICE_MS) {
      s.slowCalls++;
      if (tookMs > s.maxMs) {
        s.maxMs = tookMs;
        s.maxTokenId = tokenId;
      }
      return;
    }
    const slowCalls = (s?.slowCalls ?? 0) + 1;
    const slowest = s !== undefined && s.maxMs > tookMs;
    const maxMs = slowest ? s.maxMs : tookMs;
    const maxTokenId = slowest ? s.maxTokenId : tokenId;
    this.#log.warn(
      { tokenId, strategy, tookMs, slowMs: this.slowMs, slowCalls, maxMs, maxTokenId },
      "strategy slow",
    );
    this.#slow.set(strategy, { lastLineMono: mono, slowCalls: 0, maxMs: 0, maxTokenId: tokenId });
  }
}

/** What tells one failure from another in the log: the error's code and message. */
function messageOf(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    return typeof code === "string" ? `${code}: ${err.message}` : err.message;
  }
  return String(err);
}
