import type { Clock } from "../core/clock.js";
import type { GatewayCounters } from "./counters.js";
import { splitIds } from "./ids.js";
import { SubscriptionLayout } from "./layout.js";
import type { BackoffSettings, GatewayLimits } from "./options.js";
import { PeriodicAudit } from "./periodic-audit.js";
import { SubscriptionSync } from "./sync.js";
import { type Channel, isWalletScoped, type LinkSender, type Sid } from "./types.js";
import { type RejectedIds, type RestoredIds, type SubscribeOutcome, SubscribeWaiters } from "./waiters.js";

/** What the manager needs from the client's links. */
export interface SubscriptionDeps extends LinkSender {
  readonly limits: GatewayLimits;
  readonly counters: GatewayCounters;
  /** Clock, back-off and jitter of the retries of refused subscriptions. */
  readonly clock: Clock;
  readonly backoff: BackoffSettings;
  readonly random: () => number;
  /** Each open link's subscriptions are checked this often (jittered; 0: never): periodic-audit.ts. */
  readonly auditIntervalMs: number;
  /** True when link `index` exists and is open. */
  isOpen(link: number): boolean;
  /** Makes sure link `index` exists (it connects by itself). */
  ensureLink(link: number): void;
  onRejected(r: RejectedIds): void;
  onRestored(r: RestoredIds): void;
  /** The server holds these ids now (any accepted subscribe or update). */
  onAccepted(channel: Channel, ids: readonly string[]): void;
  /** The server was found no longer to hold these ids (sync.ts audit): subscribing them again. */
  onLost(channel: Channel, ids: readonly string[]): void;
  /** A subscriptions check showed the server holding these confirmed ids (sync.ts audit). */
  onHeld(channel: Channel, ids: readonly string[]): void;
  /**
   * The server still held a sid its list_subscriptions did not show: the periodic checks pause for
   * `pausedMs` (each would resubscribe what the wrong list leaves out); the drop signs still start one.
   */
  onListWrong(link: number, pausedMs: number): void;
}

/**
 * The subscription manager: what is wanted (layout.ts: ids packed under the caps, links as
 * needed), what the server holds (sync.ts, per link), and who waits for which verdict
 * (waiters.ts). Ids are checked (ids.ts) before anything is sent.
 */
export class SubscriptionManager {
  readonly #d: SubscriptionDeps;
  readonly #layout: SubscriptionLayout;
  readonly #waiters = new SubscribeWaiters();
  readonly #sync: SubscriptionSync;
  readonly #periodic: PeriodicAudit;

  constructor(deps: SubscriptionDeps) {
    this.#d = deps;
    this.#layout = new SubscriptionLayout(deps.limits);
    this.#sync = new SubscriptionSync({
      layout: this.#layout,
      waiters: this.#waiters,
      counters: deps.counters,
      clock: deps.clock,
      backoff: deps.backoff,
      random: deps.random,
      isOpen: deps.isOpen,
      send: deps.send,
      onRejected: deps.onRejected,
      onRestored: deps.onRestored,
      onAccepted: deps.onAccepted,
      onLost: deps.onLost,
      onHeld: deps.onHeld,
      onListWrong: (link) => {
        if (this.#periodic.pause()) deps.onListWrong(link, this.#periodic.pauseMs);
      },
    });
    // A link with a sid the server may still hold (its unsubscribe unanswered) is not checked: a
    // wrong list there would add a sid per check. Its reconnect clears that (orphans.ts).
    const checks = (on: boolean) => {
      deps.counters.subscriptionChecksActive = on ? 1 : 0;
    };
    this.#periodic = new PeriodicAudit(
      deps.clock,
      deps.auditIntervalMs,
      deps.random,
      (link) => {
        if (!this.#sync.hasUnproven(link)) void this.#sync.audit(link);
      },
      checks,
    );
    checks(this.#periodic.active);
  }

  /**
   * Places ids and syncs the links they land on; resolves with the server's verdict per id (a
   * refusal with `retryInMs` is not final: those ids stay wanted and are sent again).
   */
  async subscribe(channel: Channel, ids: readonly string[]): Promise<SubscribeOutcome> {
    const wallet = isWalletScoped(channel);
    const { valid, invalid } = wallet ? { valid: [""], invalid: [] } : splitIds(channel, ids);
    const local: RejectedIds[] =
      invalid.length === 0
        ? []
        : [{ channel, ids: invalid, code: "invalid_params", message: "malformed id" }];
    const already: string[] = [];
    const wait: string[] = [];
    for (const id of valid) (this.isLive(channel, id) ? already : wait).push(id);
    const outcome = this.#waiters.wait(channel, wait);
    for (const link of this.#layout.place(channel, wallet ? [] : valid)) {
      this.#d.ensureLink(link);
      void this.#sync.request(link);
    }
    const o = await outcome;
    const accepted = [...already, ...o.accepted];
    const rejected = [...local, ...o.rejected];
    return o.withdrawn === undefined
      ? { accepted, rejected }
      : { accepted, rejected, withdrawn: o.withdrawn };
  }

  /**
   * Un-wants ids; resolves when the links were synced. A subscribe() still waiting for one of them
   * stops waiting for it at once (`withdrawn`): on a link not open yet, or before its pass ran, it
   * is never sent, so no verdict would ever settle it.
   */
  async unsubscribe(channel: Channel, ids: readonly string[]): Promise<void> {
    const wallet = isWalletScoped(channel);
    const norm = wallet ? [] : splitIds(channel, ids).valid;
    const removed = (wallet ? [""] : norm).filter((id) => this.#layout.has(channel, id));
    const touched = this.#layout.remove(channel, norm);
    this.#waiters.withdraw(channel, removed);
    await Promise.all([...touched].map((link) => this.#sync.request(link)));
  }

  /** The link a wanted (channel, id) lives on ("" for wallet-scoped channels). */
  linkOf(channel: Channel, id: string): number | undefined {
    return this.#layout.subOf(channel, id)?.link;
  }

  /** True when (channel, id) is wanted: events about it are delivered. */
  wants(channel: Channel, id: string): boolean {
    return this.#layout.has(channel, id);
  }

  /** True when the server holds (channel, id) on an open connection. */
  isLive(channel: Channel, id: string): boolean {
    const link = this.linkOf(channel, id);
    return link !== undefined && this.#d.isOpen(link) && this.#layout.isHeld(channel, id);
  }

  /** Wanted ids of a channel on one link. */
  idsOn(link: number, channel: Channel): string[] {
    return this.#layout
      .subsOn(link)
      .filter((s) => s.channel === channel)
      .flatMap((s) => [...s.ids]);
  }

  /**
   * Checks what the server holds on `link` against what we confirmed there (list_subscriptions),
   * and subscribes again what it dropped; resolves when checked.
   */
  audit(link: number): Promise<void> {
    return this.#sync.audit(link);
  }

  /**
   * True when a push carrying `sid` on `link` comes from a sid we unsubscribed and the server never
   * answered (it still holds it): the caller drops the push, the unsubscribe is sent again. Never
   * while a subscribe or update_subscription is in flight on the link: its reply decides (orphans.ts).
   */
  stray(link: number, sid: Sid): boolean {
    return this.#sync.stray(link, sid);
  }

  /** A link (re)connected: nothing is held there; subscribe everything it should carry. */
  linkUp(link: number): void {
    this.#sync.reset(link);
    void this.#sync.request(link);
    this.#periodic.arm(link);
  }

  /** Fails every pending subscribe() and cancels the retries and checks (fatal close, close()). */
  failAll(err: Error): void {
    this.#sync.stop();
    this.#periodic.stop();
    this.#waiters.failAll(err);
  }
}
