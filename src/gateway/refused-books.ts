import type { Clock, TimerId } from "../core/clock.js";
import { isRecheckedRefusal } from "./refusal-policy.js";

/** Back-off of the re-subscribes of books refused for good with a code that can change. */
export interface RecheckBackoff {
  /** Delay before the first re-subscribe, ms. */
  readonly baseMs: number;
  /** Cap of the doubling delay, ms. */
  readonly maxMs: number;
}

/** Seconds rather than the reconnect's half second: the code said "not now", not "try again". */
export const DEFAULT_RECHECK_BACKOFF: RecheckBackoff = { baseMs: 5_000, maxMs: 300_000 };

/** A scheduled re-subscribe, as told to listeners (Feeds logs it). */
export interface RecheckScheduled {
  readonly ids: readonly string[];
  readonly code: string;
  /** Refusals in a row of these ids (1: the first refusal). */
  readonly attempt: number;
  readonly inMs: number;
}

/** What a RefusedBookRecheck needs from the feed. */
export interface RecheckDeps {
  readonly clock: Clock;
  readonly backoff: RecheckBackoff;
  /** True while the token still stands refused (not subscribed again, untracked or retired since). */
  stillRefused(tokenId: string): boolean;
  /** Subscribes the tokens again; its refusals come back through `refused` (the client's onRejected). */
  resubscribe(tokenIds: readonly string[]): Promise<void>;
}

/**
 * Re-subscribes token_book ids refused for good with a code whose verdict can change
 * (refusal-policy.ts isRecheckedRefusal), after a back-off doubling from `baseMs` to `maxMs` per
 * refusal in a row: a long-running daemon gets such a book back without a restart, for one
 * subscribe per refused batch and period. The ids stay refused meanwhile (untracked, counted by
 * mm_book_refused); a refused retry counts as a refusal again. An id is retried only by its latest
 * schedule. Other codes: nothing.
 *
 * Ids refused together are halved for their next try (each half its own schedule): the client may
 * send a retry as one update_subscription add_ids, which a server takes all or nothing, so one
 * token still unknown would otherwise hold every other of its batch refused for ever; halving gives
 * each token its own fate within log2(n) refusals (n ≤ 100, the subscription cap) for at most one
 * command per refused id and period. The batches due go one after the other, each awaiting its
 * verdict, so the client's coalesced pass cannot merge them back into one command.
 */
export class RefusedBookRecheck {
  readonly #d: RecheckDeps;
  /** Refused ids waiting for a re-subscribe: refusals in a row and the timer that will send them. */
  readonly #byId = new Map<string, { attempt: number; inMs: number; timer: TimerId }>();
  readonly #timers = new Set<TimerId>();
  /** The batches due, sent one at a time (see the class comment). */
  #chain: Promise<void> = Promise.resolve();
  #stopped = false;

  constructor(deps: RecheckDeps) {
    this.#d = deps;
  }

  /**
   * `ids` were refused for good with `code`: schedules their re-subscribe when the code can change,
   * and says when; undefined when they are not retried.
   */
  refused(ids: readonly string[], code: string): RecheckScheduled | undefined {
    if (ids.length === 0 || !isRecheckedRefusal(code)) {
      for (const id of ids) this.#byId.delete(id);
      return undefined;
    }
    const attempt = 1 + Math.max(...ids.map((id) => this.#byId.get(id)?.attempt ?? 0));
    const { baseMs, maxMs } = this.#d.backoff;
    const inMs = Math.min(maxMs, baseMs * 2 ** Math.min(attempt - 1, 30));
    const half = Math.ceil(ids.length / 2);
    for (const batch of ids.length > 1 ? [ids.slice(0, half), ids.slice(half)] : [ids]) {
      const timer = this.#d.clock.setTimer(inMs, () => this.#due(timer, batch));
      this.#timers.add(timer);
      for (const id of batch) this.#byId.set(id, { attempt, inMs, timer });
    }
    return { ids, code, attempt, inMs };
  }

  /** The pending schedule of `tokenId`, if it waits for a re-subscribe. */
  pending(tokenId: string): { attempt: number; inMs: number } | undefined {
    const e = this.#byId.get(tokenId);
    return e === undefined ? undefined : { attempt: e.attempt, inMs: e.inMs };
  }

  /** The token is subscribed (accepted): its refusals in a row end. */
  accepted(tokenId: string): void {
    this.#byId.delete(tokenId);
  }

  /** Cancels every timer (the feed closed). */
  stop(): void {
    for (const t of this.#timers) this.#d.clock.cancelTimer(t);
    this.#timers.clear();
    this.#byId.clear();
    this.#stopped = true;
  }

  #due(timer: TimerId, ids: readonly string[]): void {
    this.#timers.delete(timer);
    const due = ids.filter((id) => this.#byId.get(id)?.timer === timer && this.#d.stillRefused(id));
    // An id no longer refused (subscribed again, retired) leaves; one rescheduled since waits for that.
    for (const id of ids) if (this.#byId.get(id)?.timer === timer && !due.includes(id)) this.#byId.delete(id);
    if (due.length === 0) return;
    this.#chain = this.#chain.then(async () => {
      // Still refused when its turn comes (a batch ahead may have waited for a reconnect).
      const now = due.filter((id) => !this.#stopped && this.#d.stillRefused(id));
      if (now.length > 0) await this.#d.resubscribe(now).catch(() => undefined);
    });
  }
}
