import { type Channel, isWalletScoped } from "./channels.js";

/** The side of a connection the registry needs: where to send, and whose wallet it is. */
export interface Subscriber {
  /** Lowercase acting wallet: the index key of the wallet-scoped channels. */
  readonly wallet: string;
  send(text: string): void;
}

/** One accepted subscription: a connection-local sid on one channel over a set of ids. */
export interface Subscription {
  readonly sid: number;
  readonly channel: Channel;
  /** Public ids as accepted (empty on wallet-scoped channels). */
  readonly ids: Set<string>;
  readonly owner: Subscriber;
}

/**
 * Who listens to what, across every connection: channel → key → subscriptions, where the key is
 * an id (token, condition, vault, "platform_status") or, on user_orders and user_fills, the
 * wallet. Publishers look up one key per event, so fan-out never scans connections.
 */
export class SubscriberIndex {
  readonly #byChannel = new Map<Channel, Map<string, Set<Subscription>>>();

  add(sub: Subscription, key: string): void {
    let keys = this.#byChannel.get(sub.channel);
    if (keys === undefined) {
      keys = new Map();
      this.#byChannel.set(sub.channel, keys);
    }
    const subs = keys.get(key);
    if (subs === undefined) keys.set(key, new Set([sub]));
    else subs.add(sub);
  }

  remove(sub: Subscription, key: string): void {
    const keys = this.#byChannel.get(sub.channel);
    const subs = keys?.get(key);
    if (keys === undefined || subs === undefined) return;
    subs.delete(sub);
    if (subs.size === 0) keys.delete(key);
  }

  /** Subscriptions of `channel` covering `key` (undefined when none). */
  get(channel: Channel, key: string): ReadonlySet<Subscription> | undefined {
    return this.#byChannel.get(channel)?.get(key);
  }

  has(channel: Channel, key: string): boolean {
    return this.#byChannel.get(channel)?.has(key) === true;
  }

  /** Keys of `channel` with at least one subscriber. */
  keys(channel: Channel): string[] {
    return [...(this.#byChannel.get(channel)?.keys() ?? [])];
  }
}

/**
 * One connection's subscriptions: sid allocation and the mirror of every change into the shared
 * index. The caller enforces the caps (they are rejections, not errors).
 */
export class SubscriptionTable {
  readonly #index: SubscriberIndex;
  readonly #owner: Subscriber;
  readonly #bySid = new Map<number, Subscription>();
  #nextSid = 1;

  constructor(index: SubscriberIndex, owner: Subscriber) {
    this.#index = index;
    this.#owner = owner;
  }

  get size(): number {
    return this.#bySid.size;
  }

  get(sid: unknown): Subscription | undefined {
    return typeof sid === "number" ? this.#bySid.get(sid) : undefined;
  }

  /** Every subscription, in sid order. */
  list(): Subscription[] {
    return [...this.#bySid.values()];
  }

  add(channel: Channel, ids: readonly string[]): Subscription {
    const sub: Subscription = { sid: this.#nextSid++, channel, ids: new Set(ids), owner: this.#owner };
    this.#bySid.set(sub.sid, sub);
    for (const key of this.#keys(sub)) this.#index.add(sub, key);
    return sub;
  }

  /** Adds ids; returns those that were not already there. */
  addIds(sub: Subscription, ids: readonly string[]): string[] {
    const added = ids.filter((id) => !sub.ids.has(id));
    for (const id of added) {
      sub.ids.add(id);
      this.#index.add(sub, id);
    }
    return added;
  }

  /** Removes ids; returns those that were there. */
  removeIds(sub: Subscription, ids: readonly string[]): string[] {
    const removed = ids.filter((id) => sub.ids.has(id));
    for (const id of removed) {
      sub.ids.delete(id);
      this.#index.remove(sub, id);
    }
    return removed;
  }

  remove(sid: number): boolean {
    const sub = this.#bySid.get(sid);
    if (sub === undefined) return false;
    for (const key of this.#keys(sub)) this.#index.remove(sub, key);
    this.#bySid.delete(sid);
    return true;
  }

  /** Drops every subscription (the connection closed). */
  clear(): void {
    for (const sid of [...this.#bySid.keys()]) this.remove(sid);
  }

  #keys(sub: Subscription): Iterable<string> {
    return isWalletScoped(sub.channel) ? [this.#owner.wallet] : sub.ids;
  }
}
