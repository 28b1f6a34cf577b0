import type { GatewayLimits } from "./options.js";
import { type Channel, isWalletScoped, type Sid } from "./types.js";

/** One subscription as the client plans it: which link, which ids, and what the server holds. */
export interface PlannedSub {
  readonly link: number;
  readonly channel: Channel;
  /** The ids wanted in this subscription (empty on wallet-scoped channels). */
  readonly ids: Set<string>;
  /** The server's sid on the link's current socket; undefined until subscribed there. */
  sid: Sid | undefined;
  /** Ids the server has confirmed on `sid`. */
  confirmed: Set<string>;
}

const key = (channel: Channel, id: string): string => `${channel}\u0000${id}`;

/**
 * Where every wanted (channel, id) lives: ids packed into subscriptions of at most
 * `maxIdsPerSubscription`, subscriptions into links (connections) of at most
 * `maxSubscriptionsPerConnection`. A new id first fills a subscription of its channel that has
 * room, then opens a subscription on the first link that has room, then a new link; so 1,000
 * tokens on one channel are 10 subscriptions on link 0, and 30,000 are 300 subscriptions over two
 * links (256 + 44). Pure bookkeeping: no I/O (sync.ts makes the server match it).
 * @example
 * const layout = new SubscriptionLayout({ maxIdsPerSubscription: 100, maxSubscriptionsPerConnection: 256 });
 * layout.place("token_book", ids); layout.linkCount; // 1 for up to 25,600 ids
 */
export class SubscriptionLayout {
  readonly #limits: GatewayLimits;
  readonly #links: PlannedSub[][] = [];
  readonly #byKey = new Map<string, PlannedSub>();
  /** Per channel, the subscriptions with room for more ids. */
  readonly #roomy = new Map<Channel, Set<PlannedSub>>();

  constructor(limits: GatewayLimits) {
    this.#limits = limits;
  }

  /** The most ids one subscription (or one add_ids call) may hold. */
  get maxIdsPerSubscription(): number {
    return this.#limits.maxIdsPerSubscription;
  }

  /** Links the layout uses (a link with no subscription left still counts). */
  get linkCount(): number {
    return this.#links.length;
  }

  /** The subscriptions on one link. */
  subsOn(link: number): readonly PlannedSub[] {
    return this.#links[link] ?? [];
  }

  /** The subscription holding (channel, id); id "" for a wallet-scoped channel. */
  subOf(channel: Channel, id: string): PlannedSub | undefined {
    return this.#byKey.get(key(channel, id));
  }

  /** True when (channel, id) is wanted. */
  has(channel: Channel, id: string): boolean {
    return this.#byKey.has(key(channel, id));
  }

  /** Every wanted id of a channel. */
  idsOf(channel: Channel): string[] {
    const out: string[] = [];
    for (const subs of this.#links) for (const s of subs) if (s.channel === channel) out.push(...s.ids);
    return out;
  }

  /**
   * Places ids not yet placed (for a wallet-scoped channel pass no ids: one subscription, once);
   * returns the links whose subscriptions changed.
   */
  place(channel: Channel, ids: readonly string[]): Set<number> {
    const touched = new Set<number>();
    if (isWalletScoped(channel)) {
      if (!this.#byKey.has(key(channel, ""))) {
        const sub = this.#newSub(channel);
        this.#byKey.set(key(channel, ""), sub);
        touched.add(sub.link);
      }
      return touched;
    }
    for (const id of ids) {
      const k = key(channel, id);
      if (this.#byKey.has(k)) continue;
      const sub = this.#roomIn(channel);
      sub.ids.add(id);
      if (sub.ids.size >= this.#limits.maxIdsPerSubscription) this.#roomy.get(channel)?.delete(sub);
      this.#byKey.set(k, sub);
      touched.add(sub.link);
    }
    return touched;
  }

  /** Un-wants ids (wallet-scoped: pass none); returns the links whose subscriptions changed. */
  remove(channel: Channel, ids: readonly string[]): Set<number> {
    const touched = new Set<number>();
    for (const id of isWalletScoped(channel) ? [""] : ids) {
      const k = key(channel, id);
      const sub = this.#byKey.get(k);
      if (sub === undefined) continue;
      this.#byKey.delete(k);
      sub.ids.delete(id);
      if (!isWalletScoped(channel)) this.#roomyOf(channel).add(sub);
      touched.add(sub.link);
    }
    return touched;
  }

  /** Forgets a subscription entirely (unsubscribed, or rejected as a whole). */
  discard(sub: PlannedSub): void {
    for (const id of isWalletScoped(sub.channel) ? [""] : sub.ids) {
      if (this.#byKey.get(key(sub.channel, id)) === sub) this.#byKey.delete(key(sub.channel, id));
    }
    sub.ids.clear();
    this.#roomy.get(sub.channel)?.delete(sub);
    const subs = this.#links[sub.link];
    const i = subs?.indexOf(sub) ?? -1;
    if (subs !== undefined && i >= 0) subs.splice(i, 1);
  }

  /** True when the server holds (channel, id) on the link's current socket. */
  isHeld(channel: Channel, id: string): boolean {
    const sub = this.#byKey.get(key(channel, id));
    if (sub?.sid === undefined) return false;
    return isWalletScoped(channel) || sub.confirmed.has(id);
  }

  /** True when nothing is wanted of the subscription any more: it should be unsubscribed. */
  isEmpty(sub: PlannedSub): boolean {
    if (isWalletScoped(sub.channel)) return this.#byKey.get(key(sub.channel, "")) !== sub;
    return sub.ids.size === 0;
  }

  #roomIn(channel: Channel): PlannedSub {
    for (const sub of this.#roomyOf(channel)) {
      // The lowest link first keeps connections few; any roomy sub of that link will do.
      if (sub.ids.size < this.#limits.maxIdsPerSubscription) return sub;
    }
    const sub = this.#newSub(channel);
    this.#roomyOf(channel).add(sub);
    return sub;
  }

  #newSub(channel: Channel): PlannedSub {
    let link = this.#links.findIndex((subs) => subs.length < this.#limits.maxSubscriptionsPerConnection);
    if (link < 0) {
      link = this.#links.length;
      this.#links.push([]);
    }
    const sub: PlannedSub = { link, channel, ids: new Set(), sid: undefined, confirmed: new Set() };
    (this.#links[link] as PlannedSub[]).push(sub);
    return sub;
  }

  #roomyOf(channel: Channel): Set<PlannedSub> {
    let set = this.#roomy.get(channel);
    if (set === undefined) {
      set = new Set();
      this.#roomy.set(channel, set);
    }
    return set;
  }
}
