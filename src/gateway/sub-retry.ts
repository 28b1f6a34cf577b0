import type { Clock, TimerId } from "../core/clock.js";
import type { PlannedSub } from "./layout.js";
import { type BackoffSettings, reconnectDelay } from "./options.js";

interface RetryState {
  /** Refusals in a row (the back-off exponent). */
  attempt: number;
  /** Pending back-off; while set, the refused ids are not sent. */
  timer: TimerId | undefined;
  /** Ids refused with a retryable code and not accepted since ("" for a wallet-scoped sub). */
  readonly ids: Set<string>;
}

/**
 * Retry bookkeeping of subscriptions refused with a retryable code (refusal-policy.ts): the ids
 * stay wanted, and are held back for a back-off delay (the gateway's reconnect back-off, on the
 * injected Clock) that grows with each refusal in a row; when it ends, `due(link)` asks for a sync
 * pass. An accepted id leaves the set (reported as restored); a new socket sends them at once.
 */
export class SubscriptionRetries {
  readonly #clock: Clock;
  readonly #backoff: BackoffSettings;
  readonly #random: () => number;
  readonly #due: (link: number) => void;
  readonly #bySub = new Map<PlannedSub, RetryState>();

  constructor(clock: Clock, backoff: BackoffSettings, random: () => number, due: (link: number) => void) {
    this.#clock = clock;
    this.#backoff = backoff;
    this.#random = random;
    this.#due = due;
  }

  /** `ids` of `sub` were refused with a retryable code: hold them back; the delay and attempt. */
  refused(sub: PlannedSub, ids: readonly string[]): { delayMs: number; attempt: number } {
    let st = this.#bySub.get(sub);
    if (st === undefined) {
      st = { attempt: 0, timer: undefined, ids: new Set() };
      this.#bySub.set(sub, st);
    }
    for (const id of ids) st.ids.add(id);
    st.attempt++;
    const delayMs = reconnectDelay(st.attempt, this.#backoff, this.#random);
    const state = st;
    if (state.timer !== undefined) this.#clock.cancelTimer(state.timer);
    state.timer = this.#clock.setTimer(delayMs, () => {
      state.timer = undefined;
      this.#due(sub.link);
    });
    return { delayMs, attempt: state.attempt };
  }

  /** True while `sub` waits out a back-off (a whole-subscription refusal: do not subscribe yet). */
  waiting(sub: PlannedSub): boolean {
    return this.#bySub.get(sub)?.timer !== undefined;
  }

  /** True when `id` of `sub` waits out a back-off (do not add it yet). */
  held(sub: PlannedSub, id: string): boolean {
    const st = this.#bySub.get(sub);
    return st?.timer !== undefined && st.ids.has(id);
  }

  /** The server now holds `ids` of `sub`: those that had been refused, now restored. */
  accepted(sub: PlannedSub, ids: Iterable<string>): string[] {
    const st = this.#bySub.get(sub);
    if (st === undefined) return [];
    const restored: string[] = [];
    for (const id of ids) if (st.ids.delete(id)) restored.push(id);
    for (const id of st.ids) if (id !== "" && !sub.ids.has(id)) st.ids.delete(id); // un-wanted meanwhile
    if (st.ids.size === 0) this.forget(sub);
    return restored;
  }

  /** Final refusal or un-wanted: `ids` of `sub` are no longer retried. */
  drop(sub: PlannedSub, ids: readonly string[]): void {
    const st = this.#bySub.get(sub);
    if (st === undefined) return;
    for (const id of ids) st.ids.delete(id);
    if (st.ids.size === 0) this.forget(sub);
  }

  /** A new socket: what was held back is sent at once (the attempt count is kept). */
  wake(sub: PlannedSub): void {
    const st = this.#bySub.get(sub);
    if (st?.timer === undefined) return;
    this.#clock.cancelTimer(st.timer);
    st.timer = undefined;
  }

  /** Forgets `sub` (unsubscribed, discarded, or everything restored). */
  forget(sub: PlannedSub): void {
    const st = this.#bySub.get(sub);
    if (st?.timer !== undefined) this.#clock.cancelTimer(st.timer);
    this.#bySub.delete(sub);
  }

  /** Cancels every timer (the client stopped). */
  stop(): void {
    for (const sub of [...this.#bySub.keys()]) this.forget(sub);
  }
}
