import type { Clock, TimerId } from "../core/clock.js";
import type { Channel } from "./types.js";

/**
 * Slow re-asks of ids refused for good with a code about the key's grant (refusal-policy.ts:
 * isRecheckedRefusal). An operator can give the key the scope or the grant at the exchange while
 * mm runs, and nothing else would ever ask again: the ids would stay unwanted until a restart.
 * Every such id of the client waits for one timer (`everyMs` on the injected Clock); when it fires
 * they are all wanted again at once (`due`: placed and synced, so each link sends one subscribe or
 * update_subscription for all of its own, however many ids), and are `asking` until the server's
 * verdict. Accepted, they are back (`accepted`); refused again, they wait for the next tick and
 * the refusal is `again` (its listeners heard of the episode already). Between ticks the ids stay
 * unwanted, so nothing of theirs is sent or delivered, and the timer runs only while some wait.
 */
export class RefusalRecheck {
  readonly everyMs: number;
  readonly #clock: Clock;
  readonly #due: (channel: Channel, ids: string[]) => void;
  /** Refused for good, asked again at the next tick. */
  readonly #waiting = new Map<Channel, Set<string>>();
  /** Asked again, the server's verdict not in yet. */
  readonly #asking = new Map<Channel, Set<string>>();
  #timer: TimerId | undefined;

  constructor(clock: Clock, everyMs: number, due: (channel: Channel, ids: string[]) => void) {
    this.#clock = clock;
    this.everyMs = everyMs;
    this.#due = due;
  }

  /**
   * Ids of `channel` refused for good with a rechecked code: all wait for the next tick. Returns
   * those refused on a re-ask (`again`) apart from those refused for the first time.
   */
  refused(channel: Channel, ids: readonly string[]): { first: string[]; again: string[] } {
    const asking = this.#asking.get(channel);
    const first: string[] = [];
    const again: string[] = [];
    for (const id of ids) (asking?.delete(id) === true ? again : first).push(id);
    const waiting = setOf(this.#waiting, channel);
    for (const id of ids) waiting.add(id);
    if (this.#timer === undefined) this.#timer = this.#clock.setTimer(this.everyMs, () => this.#tick());
    return { first, again };
  }

  /** The server holds `ids` of `channel`: those a re-ask brought back. */
  accepted(channel: Channel, ids: readonly string[]): string[] {
    const asking = this.#asking.get(channel);
    if (asking === undefined || asking.size === 0) return [];
    return ids.filter((id) => asking.delete(id));
  }

  /** The caller subscribes or unsubscribes `ids` itself: they are no longer rechecked. */
  forget(channel: Channel, ids: readonly string[]): void {
    for (const id of ids) {
      this.#waiting.get(channel)?.delete(id);
      this.#asking.get(channel)?.delete(id);
    }
  }

  /** Cancels the timer (the client stopped). */
  stop(): void {
    if (this.#timer !== undefined) this.#clock.cancelTimer(this.#timer);
    this.#timer = undefined;
    this.#waiting.clear();
    this.#asking.clear();
  }

  #tick(): void {
    this.#timer = undefined;
    for (const [channel, ids] of [...this.#waiting]) {
      this.#waiting.delete(channel);
      if (ids.size === 0) continue;
      const asking = setOf(this.#asking, channel);
      for (const id of ids) asking.add(id);
      this.#due(channel, [...ids]);
    }
  }
}

function setOf(m: Map<Channel, Set<string>>, channel: Channel): Set<string> {
  let s = m.get(channel);
  if (s === undefined) {
    s = new Set();
    m.set(channel, s);
  }
  return s;
}
