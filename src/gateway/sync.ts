import type { Clock } from "../core/clock.js";
import { bump, type GatewayCounters } from "./counters.js";
import { CommandRejectedError } from "./errors.js";
import type { PlannedSub, SubscriptionLayout } from "./layout.js";
import type { BackoffSettings } from "./options.js";
import { OrphanSids } from "./orphans.js";
import { isFinalRefusal, mayMeanDropped, refusalLabel } from "./refusal-policy.js";
import { parseSubscribed, parseSubscriptionList, refusedGroups, type SubscriptionInfo } from "./replies.js";
import { SubscriptionRetries } from "./sub-retry.js";
import { type Channel, isWalletScoped, type LinkSender, type Sid } from "./types.js";
import type { RejectedIds, RestoredIds, SubscribeWaiters } from "./waiters.js";

/**
 * True when an update_subscription holding `held` confirmed ids that adds `adding` and removes
 * `removing` must send its removals alone first and its adds after they are acknowledged. The spec
 * caps a subscription and an add_ids call at 100 ids but shows no payload for update_subscription,
 * so not whether a server counts the ids before or after applying the command's removals (or counts
 * the command's ids together): refused `subscription_too_many_ids`, a final code, the adds would be
 * lost for good. One command is sent only when it fits counted before the removals (`held +
 * adding` ≤ cap, which also bounds `adding + removing`, the removals being held ids); otherwise each
 * command of the two fits however the server counts (the adds alone land in a subscription the
 * layout keeps within the cap).
 * @example removalsFirst(100, 1, 1, 100) // true: 101 ids counted before the removal
 * @example removalsFirst(99, 1, 1, 100) // false: one command
 */
export function removalsFirst(held: number, adding: number, removing: number, cap: number): boolean {
  return adding > 0 && removing > 0 && held + adding > cap;
}

/** What the sync needs from the client. */
export interface SyncDeps extends LinkSender {
  readonly layout: SubscriptionLayout;
  readonly waiters: SubscribeWaiters;
  readonly counters: GatewayCounters;
  /** Times the back-off of refused subscriptions. */
  readonly clock: Clock;
  /** Back-off of a retryable refusal (the gateway's reconnect back-off). */
  readonly backoff: BackoffSettings;
  /** Uniform [0, 1) for the back-off jitter. */
  readonly random: () => number;
  isOpen(link: number): boolean;
  /** The server refused ids (final: no longer wanted; with retryInMs: sent again after it). */
  onRejected(r: RejectedIds): void;
  /** Ids refused with a retryable code were accepted by a later attempt. */
  onRestored(r: RestoredIds): void;
  /** The server holds these ids now (after the waiters and onRestored heard it). */
  onAccepted(channel: Channel, ids: readonly string[]): void;
  /**
   * The server was found no longer to hold these confirmed ids ([""]: a wallet-scoped sub): they
   * are being subscribed again (what they carried meanwhile was lost).
   */
  onLost(channel: Channel, ids: readonly string[]): void;
  /**
   * A check's list showed the server holding these confirmed ids ([""]: a wallet-scoped sub): what
   * they carried reached us up to now (a recorder knows from when a later loss lost it).
   */
  onHeld(channel: Channel, ids: readonly string[]): void;
  /** A sid the server's list no longer showed was still held: its list_subscriptions is wrong. */
  onListWrong(link: number): void;
}

/**
 * Makes each link's server-side subscriptions match the layout, one pass at a time per link
 * (passes are queued and coalesced; commands within a pass are pipelined). A subscription with no
 * sid is subscribed (one entry per command, so the reply is unambiguous); one with a sid gets
 * update_subscription for the difference between wanted and confirmed ids (the removals alone
 * first when one command could be over the cap: removalsFirst); an emptied one is unsubscribed. A
 * command lost with its connection changes nothing: reset() at the next connect forgets every sid
 * and the next pass subscribes everything again. Results of a pass that straddles a reconnect are
 * discarded (generation check). Ids a subscribe reply leaves out of `accepted` take the code of the
 * rejected entry naming them (a partial accept), else `not_accepted`. A refusal with a final code
 * (refusal-policy.ts) un-wants the ids; any other is retried after back-off (sub-retry.ts), the ids
 * staying wanted meanwhile: every refusal is reported (onRejected), and a retried id accepted at
 * last too (onRestored). A refused update_subscription's removals stay confirmed and are sent again.
 */
export class SubscriptionSync {
  readonly #d: SyncDeps;
  readonly #queued = new Map<number, Promise<void>>();
  readonly #tail = new Map<number, Promise<void>>();
  readonly #generation = new Map<number, number>();
  /** Audits queued and not started, per link (coalesced like passes). */
  readonly #audits = new Map<number, Promise<void>>();
  /** Sids the server's list no longer showed: unsubscribed at the next pass's start (orphans.ts). */
  readonly #orphans: OrphanSids;
  readonly #retries: SubscriptionRetries;

  constructor(deps: SyncDeps) {
    this.#d = deps;
    this.#orphans = new OrphanSids({
      send: deps.send,
      onListWrong: deps.onListWrong,
      onRepaired: (channel) => bump(deps.counters.subscriptionsLost, channel),
    });
    this.#retries = new SubscriptionRetries(deps.clock, deps.backoff, deps.random, (link) => {
      void this.request(link);
    });
  }

  /** The link has a new socket: nothing is subscribed on it yet (held-back ids go at once). */
  reset(link: number): void {
    this.#generation.set(link, (this.#generation.get(link) ?? 0) + 1);
    this.#orphans.reset(link); // sids of the old socket
    for (const sub of this.#d.layout.subsOn(link)) {
      sub.sid = undefined;
      sub.confirmed = new Set();
      this.#retries.wake(sub);
    }
  }

  /** Cancels the retry timers (the client stopped). */
  stop(): void {
    this.#retries.stop();
  }

  /** True when a push under `sid` on `link` is from a sid the server holds, not we: dropped (orphans.ts). */
  stray(link: number, sid: Sid): boolean {
    return this.#orphans.stray(link, sid);
  }

  /** True when `link` has a sid whose unsubscribe went unanswered (orphans.ts): a check waits. */
  hasUnproven(link: number): boolean {
    return this.#orphans.hasUnproven(link);
  }

  /** Schedules a pass over `link` (coalesced with one already queued); resolves when it ran. */
  request(link: number): Promise<void> {
    return this.#chain(link, this.#queued, () => this.#pass(link));
  }

  /**
   * Checks what the server holds on `link` (list_subscriptions) against what we confirmed there,
   * after a sign it dropped something while the socket lived (a get_book_snapshot or an
   * update_subscription refused invalid_params: refusal-policy.ts mayMeanDropped) or on the
   * periodic check (periodic-audit.ts): a sid it no longer lists is subscribed afresh, ids it no
   * longer lists under a sid are added again, and onLost names them (the pass that subscribes them
   * unsubscribes the old sid first: orphans.ts). Runs between passes (no command of ours is in
   * flight there); coalesced with one already queued. An unreadable or unanswered list changes
   * nothing (the spec shows no payload for it): unanswered, it times out alone (REPLY_OPTIONAL).
   */
  audit(link: number): Promise<void> {
    return this.#chain(link, this.#audits, () => this.#audit(link));
  }

  /**
   * Runs `run` on `link` after everything chained there before (passes and audits never overlap
   * on a link), unless one is already waiting in `waiting`: then that one's promise, the two
   * coalesced. A failed run does not stop the chain.
   */
  #chain(link: number, waiting: Map<number, Promise<void>>, run: () => Promise<void>): Promise<void> {
    const queued = waiting.get(link);
    if (queued !== undefined) return queued;
    const prev = this.#tail.get(link) ?? Promise.resolve();
    const p = prev.then(() => {
      waiting.delete(link);
      return run();
    });
    waiting.set(link, p);
    this.#tail.set(
      link,
      p.catch(() => undefined),
    );
    return p;
  }

  async #audit(link: number): Promise<void> {
    if (!this.#d.isOpen(link)) return;
    const gen = this.#generation.get(link) ?? 0;
    const held = await this.#list(link);
    if (held === undefined || this.#stale(link, gen)) return;
    let lost = false;
    for (const sub of this.#d.layout.subsOn(link)) {
      if (sub.sid === undefined) continue;
      if (this.#lost(sub, held.get(String(sub.sid)))) lost = true;
      // What is still confirmed (all of it, or what a partial loss left) was listed as held.
      const still = isWalletScoped(sub.channel) ? (sub.sid === undefined ? [] : [""]) : [...sub.confirmed];
      if (still.length > 0) this.#d.onHeld(sub.channel, still);
    }
    if (lost) void this.request(link);
  }

  /** The server's subscriptions on `link` by sid, or undefined when it did not say. */
  async #list(link: number): Promise<Map<string, SubscriptionInfo> | undefined> {
    try {
      const list = parseSubscriptionList(await this.#d.send(link, "list_subscriptions", {}));
      return new Map(list.map((s) => [String(s.sid), s]));
    } catch {
      return undefined;
    }
  }

  /**
   * Compares `sub` with the server's entry for its sid; forgets what the server no longer holds and
   * says so. True when something was lost. An entry listing no ids is taken as holding ours (a
   * server may leave them out). Ids missing under a listed sid count as repaired at once; a sid
   * gone only once its unsubscribe does not show the server held it (orphans.ts onRepaired).
   */
  #lost(sub: PlannedSub, listed: SubscriptionInfo | undefined): boolean {
    const wallet = isWalletScoped(sub.channel);
    let ids: string[];
    if (listed === undefined || listed.channel !== sub.channel) {
      ids = wallet ? [""] : [...sub.confirmed];
      if (sub.sid !== undefined) this.#orphans.add(sub.link, sub.sid, sub.channel);
      sub.sid = undefined;
      sub.confirmed = new Set();
    } else {
      if (wallet || listed.ids.length === 0) return false;
      const norm = (id: string) => (sub.channel === "vault_positions" ? id.toLowerCase() : id);
      const there = new Set(listed.ids.map(norm));
      ids = [...sub.confirmed].filter((id) => !there.has(id));
      if (ids.length === 0) return false;
      for (const id of ids) sub.confirmed.delete(id);
      bump(this.#d.counters.subscriptionsLost, sub.channel);
    }
    if (ids.length > 0) this.#d.onLost(sub.channel, ids);
    return true;
  }

  async #pass(link: number): Promise<void> {
    if (!this.#d.isOpen(link)) return;
    const gen = this.#generation.get(link) ?? 0;
    // Before their ids are subscribed afresh: a wrong list must not leave a token under two sids.
    await this.#orphans.unsubscribe(link, new Set(this.#d.layout.subsOn(link).map((s) => s.sid)));
    if (this.#stale(link, gen)) return;
    const subs = [...this.#d.layout.subsOn(link)];
    await Promise.all(subs.map((sub) => this.#syncSub(link, gen, sub)));
  }

  #stale(link: number, gen: number): boolean {
    return (this.#generation.get(link) ?? 0) !== gen;
  }

  async #syncSub(link: number, gen: number, sub: PlannedSub): Promise<void> {
    const { layout } = this.#d;
    if (layout.isEmpty(sub)) {
      this.#retries.forget(sub);
      return this.#unsubscribe(link, gen, sub);
    }
    if (sub.sid === undefined) {
      if (this.#retries.waiting(sub)) return;
      // Up to its reply's handling (a sid it claims): pushes ahead of it may be ours (orphans.ts).
      return this.#orphans.asking(link, () => this.#subscribe(link, gen, sub));
    }
    const add = [...sub.ids].filter((id) => !sub.confirmed.has(id) && !this.#retries.held(sub, id));
    const remove = [...sub.confirmed].filter((id) => !sub.ids.has(id));
    if (add.length === 0 && remove.length === 0) return;
    // Over the cap counted before the removals: the removals go alone, the adds once they are done.
    const split = removalsFirst(sub.confirmed.size, add.length, remove.length, layout.maxIdsPerSubscription);
    const sending = split ? [] : add;
    const params: Record<string, unknown> = { sid: sub.sid };
    if (sending.length > 0) params.add_ids = sending;
    if (remove.length > 0) params.remove_ids = remove;
    try {
      await this.#orphans.asking(link, () => this.#d.send(link, "update_subscription", params));
    } catch (err) {
      if (this.#stale(link, gen) || !(err instanceof CommandRejectedError)) return;
      // invalid_params may be about the sid, not the ids: a sid the server dropped (it answers
      // "unknown sid"). Then nothing was refused: the subscription is made again, adds included.
      if (mayMeanDropped(err.code) && (await this.#sidGone(link, gen, sub))) return;
      // Adds held back behind a removal refused for now wait with it (refused by its code and
      // retried together, as in one command); behind one refused for good, they go at once.
      const final = isFinalRefusal(err.code);
      const refused = split && final ? [] : add;
      // A refused removal refuses no id we want (its stray frames are dropped as unsolicited).
      if (refused.length > 0) this.#refuse(sub, refused, err.code, err.serverMessage);
      if (remove.length > 0) this.#removalRefused(link, sub, remove, refused.length > 0, err.code);
      if (split && final) void this.request(link);
      return;
    }
    if (this.#stale(link, gen)) return;
    for (const id of remove) sub.confirmed.delete(id);
    for (const id of sending) sub.confirmed.add(id);
    this.#accepted(sub, sending);
    if (split) void this.request(link); // the adds held back
  }

  /** True when the server no longer lists `sub`'s sid: forgotten, and subscribed again. */
  async #sidGone(link: number, gen: number, sub: PlannedSub): Promise<boolean> {
    const sid = sub.sid;
    const held = await this.#list(link);
    if (held === undefined || this.#stale(link, gen) || sub.sid !== sid) return false;
    const listed = held.get(String(sid));
    if (listed !== undefined && listed.channel === sub.channel) return false;
    this.#lost(sub, undefined);
    void this.request(link);
    return true;
  }

  async #subscribe(link: number, gen: number, sub: PlannedSub): Promise<void> {
    const wallet = isWalletScoped(sub.channel);
    const requested = wallet ? [""] : [...sub.ids];
    const entry = wallet ? { channel: sub.channel } : { channel: sub.channel, ids: requested };
    let reply: ReturnType<typeof parseSubscribed>;
    try {
      reply = parseSubscribed(await this.#d.send(link, "subscribe", { subscriptions: [entry] }));
    } catch (err) {
      if (this.#stale(link, gen)) return;
      if (err instanceof CommandRejectedError) this.#refuse(sub, requested, err.code, err.serverMessage);
      else if ((err as { code?: unknown }).code === "bad_reply")
        this.#refuse(sub, requested, "bad_reply", "");
      return;
    }
    if (this.#stale(link, gen)) return;
    const norm = (id: string) => (sub.channel === "vault_positions" ? id.toLowerCase() : id);
    const acc = reply.accepted[0];
    if (acc === undefined) {
      const rej = reply.rejected[0];
      this.#d.counters.commandRejections++;
      const fallback = { code: rej?.code ?? "rejected", message: rej?.message ?? "" };
      for (const g of refusedGroups(requested, reply.rejected, sub.channel, fallback, norm))
        this.#refuse(sub, g.ids, g.code, g.message);
      return;
    }
    sub.sid = acc.sid;
    this.#orphans.claimed(link, acc.sid); // a reused number: ours now, not an orphan's
    const held = new Set(acc.ids.map(norm));
    const accepted = wallet ? [""] : requested.filter((id) => held.has(id));
    sub.confirmed = new Set(wallet ? [] : accepted); // a wallet-scoped sub is held by its sid alone
    this.#accepted(sub, accepted);
    // Ids left out of `accepted`: refused with the code of a rejected entry naming them (a partial
    // accept), else not_accepted (retried: the server gave no reason).
    const missing = requested.filter((id) => !wallet && !held.has(id));
    const unlisted = { code: "not_accepted", message: "the server did not list these ids" };
    for (const g of refusedGroups(missing, reply.rejected, sub.channel, unlisted, norm))
      this.#refuse(sub, g.ids, g.code, g.message);
    if ([...sub.ids].some((id) => !sub.confirmed.has(id)) || this.#d.layout.isEmpty(sub)) {
      void this.request(link); // changed while the command was in flight
    }
  }

  async #unsubscribe(link: number, gen: number, sub: PlannedSub): Promise<void> {
    const { layout } = this.#d;
    if (sub.sid === undefined) return layout.discard(sub);
    try {
      await this.#d.send(link, "unsubscribe", { sid: sub.sid });
    } catch (err) {
      if (this.#stale(link, gen) || !(err instanceof CommandRejectedError)) return;
    }
    if (this.#stale(link, gen)) return;
    if (layout.isEmpty(sub)) return layout.discard(sub);
    // Ids were added while the unsubscribe was in flight: subscribe afresh.
    sub.sid = undefined;
    sub.confirmed = new Set();
    void this.request(link);
  }

  /**
   * An update_subscription carrying `remove` was refused. The command is all or nothing, so the
   * server still holds those ids: they stay confirmed (forgotten, the client would undercount the
   * subscription, and a later add filling it to the cap would be refused subscription_too_many_ids,
   * for good) and are sent again: at once when the command's adds were refused for good (un-wanted
   * now, the removal goes alone), else after the back-off of the adds' retry or one of their own.
   * A removal alone refused with a final code is forgotten: the server would answer it the same
   * (an unknown sid, say: it holds nothing there).
   */
  #removalRefused(
    link: number,
    sub: PlannedSub,
    remove: readonly string[],
    withAdds: boolean,
    code: string,
  ): void {
    if (!withAdds && isFinalRefusal(code)) {
      for (const id of remove) sub.confirmed.delete(id);
      return;
    }
    if (this.#retries.waiting(sub)) return; // the pass at the end of the back-off sends them
    if (withAdds) void this.request(link);
    else this.#retries.refused(sub, []);
  }

  /** The server holds `ids` of `sub`: waiters hear it, and so do listeners of retried ones. */
  #accepted(sub: PlannedSub, ids: readonly string[]): void {
    this.#d.waiters.accept(sub.channel, ids);
    const restored = this.#retries.accepted(sub, ids);
    if (restored.length > 0) this.#d.onRestored({ channel: sub.channel, ids: restored });
    if (ids.length > 0) this.#d.onAccepted(sub.channel, ids);
  }

  /**
   * The server refused `ids` of `sub`; callers hear the code. A final code un-wants them; any
   * other holds them back for a growing back-off, then sends them again.
   */
  #refuse(sub: PlannedSub, ids: readonly string[], code: string, message: string): void {
    const { layout, counters } = this.#d;
    bump(counters.subscriptionRefusals, `${sub.channel}:${refusalLabel(code)}`);
    let r: RejectedIds;
    if (isFinalRefusal(code)) {
      this.#retries.drop(sub, ids);
      layout.remove(sub.channel, isWalletScoped(sub.channel) ? [] : ids);
      if (sub.sid === undefined && layout.isEmpty(sub)) layout.discard(sub);
      r = { channel: sub.channel, ids, code, message };
    } else {
      const { delayMs, attempt } = this.#retries.refused(sub, ids);
      r = { channel: sub.channel, ids, code, message, retryInMs: delayMs, attempt };
    }
    this.#d.waiters.reject(r);
    this.#d.onRejected(r);
  }
}
