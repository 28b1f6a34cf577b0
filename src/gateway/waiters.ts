import type { Channel } from "./types.js";

/**
 * A subscription entry the server refused, with its code (spec: Subscription rejections). With
 * `retryInMs` the refusal is not final (refusal-policy.ts): the ids stay wanted and are sent again
 * after that delay; without it they are no longer wanted.
 */
export interface RejectedIds {
  readonly channel: Channel;
  readonly ids: readonly string[];
  readonly code: string;
  readonly message: string;
  /** Set when the ids will be subscribed again after this back-off delay (ms on the client's Clock). */
  readonly retryInMs?: number;
  /** With retryInMs: refusals in a row of these ids (1 = the first). */
  readonly attempt?: number;
}

/** Ids refused earlier with a retryable code that a later attempt got accepted. */
export interface RestoredIds {
  readonly channel: Channel;
  /** The ids ([""] on a wallet-scoped channel). */
  readonly ids: readonly string[];
}

/** What became of the ids of one subscribe call. */
export interface SubscribeOutcome {
  readonly accepted: readonly string[];
  readonly rejected: readonly RejectedIds[];
  /**
   * Ids un-wanted (unsubscribe, a settled market's retireBooks) before the server's verdict on them
   * came: nothing is left to wait for. Absent when there are none.
   */
  readonly withdrawn?: readonly string[];
}

interface Waiter {
  readonly channel: Channel;
  readonly remaining: Set<string>;
  readonly accepted: string[];
  readonly rejected: RejectedIds[];
  readonly withdrawn: string[];
  readonly resolve: (o: SubscribeOutcome) => void;
  readonly reject: (e: Error) => void;
}

/**
 * Callers of subscribe() waiting for the server's verdict on their ids, across reconnects: an id
 * settles when a `subscribed`/`subscription_updated` reply accepts it, a rejection names it, or it
 * is un-wanted first (withdrawn: its subscribe may never be sent, so no verdict would come); a
 * fatal close or close() fails every waiter.
 */
export class SubscribeWaiters {
  readonly #byKey = new Map<string, Set<Waiter>>();

  /** Waits for `ids` of `channel` (wallet-scoped: [""]); ids already settled must not be passed. */
  wait(channel: Channel, ids: readonly string[]): Promise<SubscribeOutcome> {
    return new Promise((resolve, reject) => {
      if (ids.length === 0) return resolve({ accepted: [], rejected: [] });
      const w: Waiter = {
        channel,
        remaining: new Set(ids),
        accepted: [],
        rejected: [],
        withdrawn: [],
        resolve,
        reject,
      };
      for (const id of ids) {
        const k = `${channel}\u0000${id}`;
        let set = this.#byKey.get(k);
        if (set === undefined) {
          set = new Set();
          this.#byKey.set(k, set);
        }
        set.add(w);
      }
    });
  }

  /** The server holds these ids. */
  accept(channel: Channel, ids: Iterable<string>): void {
    for (const id of ids) this.#settle(channel, id, (w) => w.accepted.push(id));
  }

  /** The server refused these ids. */
  reject(r: RejectedIds): void {
    for (const id of r.ids) {
      this.#settle(r.channel, id, (w) => {
        const same = w.rejected.find((x) => x.code === r.code && x.message === r.message);
        if (same === undefined) w.rejected.push({ ...r, ids: [id] });
        else (same.ids as string[]).push(id);
      });
    }
  }

  /**
   * These ids are no longer wanted (wallet-scoped: [""]): their waiters stop waiting for them. A
   * verdict arriving later (a subscribe already in flight) finds no waiter and changes nothing.
   */
  withdraw(channel: Channel, ids: Iterable<string>): void {
    for (const id of ids) this.#settle(channel, id, (w) => w.withdrawn.push(id));
  }

  /** Fails every waiter. */
  failAll(err: Error): void {
    const all = new Set<Waiter>();
    for (const set of this.#byKey.values()) for (const w of set) all.add(w);
    this.#byKey.clear();
    for (const w of all) w.reject(err);
  }

  #settle(channel: Channel, id: string, record: (w: Waiter) => void): void {
    const k = `${channel}\u0000${id}`;
    const set = this.#byKey.get(k);
    if (set === undefined) return;
    this.#byKey.delete(k);
    for (const w of set) {
      record(w);
      w.remaining.delete(id);
      if (w.remaining.size > 0) continue;
      const { accepted, rejected, withdrawn } = w;
      w.resolve(withdrawn.length === 0 ? { accepted, rejected } : { accepted, rejected, withdrawn });
    }
  }
}
