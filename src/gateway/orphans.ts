import type { SendOptions } from "./connection.js";
import { CommandRejectedError, GatewayError } from "./errors.js";
import { mayMeanDropped } from "./refusal-policy.js";
import type { Channel, LinkSender, Sid } from "./types.js";

/** What the orphan sids need from the sync. */
export interface OrphanDeps extends LinkSender {
  /**
   * The server answered the unsubscribe of a sid its list no longer showed as done: it still held
   * it, so that list was wrong.
   */
  onListWrong(link: number): void;
  /**
   * The first unsubscribe of a sid the list no longer showed was refused invalid_params, answered
   * "nothing removed", or went unanswered (or refused for load): the server did not show it held the
   * sid, so the subscription is counted as repaired.
   */
  onRepaired(channel: Channel): void;
}

/** The reply-optional send: unanswered, it fails alone and the connection is kept. */
const OPTIONAL: SendOptions = { replyOptional: true };

/**
 * Sids the server's list_subscriptions no longer showed (sync.ts audit), per link, and their
 * `unsubscribe`. Each is unsubscribed at the start of the next pass, before its ids are subscribed
 * afresh: refused `invalid_params` (an unknown sid: refusal-policy.ts mayMeanDropped), or answered
 * with a `sids` list leaving it out (nothing removed), the server did drop it; answered as done, the
 * list was wrong (onListWrong), and a token is still held under one sid. The unsubscribe is
 * reply-optional (the spec shows no reply for it): unanswered, or refused for load (`rate_limited`,
 * `internal_error`…: busy, not forgetful, so it says nothing of what the server holds), the
 * connection is kept and the ids are subscribed afresh anyway, but the sid stays "unproven": a push
 * carrying it shows the server still holds it, so that push is dropped (the new sid carries the
 * same) and the unsubscribe is sent again, until the server answers it. A sid one of our
 * subscriptions is given again (a server reusing its numbers) is ours: claimed() forgets it here.
 * A server may push a subscription's first frame ahead of its subscribe reply, so while a subscribe
 * or update_subscription is in flight on the link (asking()) a push under an unproven sid may be
 * ours: it is kept (delivered, recorded) and nothing is sent; once every such command on the link
 * is answered the replies have decided: a sid one of them claimed is ours, one still unproven was
 * stray after all, and its unsubscribe goes again. Kept strays are duplicates (the new sid carries
 * the same ids) for at most that round trip; dropped, a frame of ours (a book's only snapshot after
 * the resubscribe) would be lost, and the resent unsubscribe would remove the subscription just made.
 * The repair is counted (onRepaired) on the first unsubscribe's verdict, unless answered as done.
 * Everything of a link is forgotten with its socket (reset).
 */
export class OrphanSids {
  readonly #d: OrphanDeps;
  /** Sids to unsubscribe at the next pass, per link, with the channel each held. */
  readonly #waiting = new Map<number, Map<Sid, Channel>>();
  /** Sids whose unsubscribe went unanswered, per link (by String(sid): a push may spell it either way). */
  readonly #unproven = new Map<number, Set<string>>();
  /** Unproven sids with an unsubscribe in flight (one at a time however many pushes show them). */
  readonly #resending = new Set<string>();
  /**
   * Resent unsubscribes (as in #resending) whose sid a subscribe reply claimed meanwhile: the server
   * took the unsubscribe first, so left unanswered it says nothing of the sid now ours.
   */
  readonly #reclaimed = new Set<string>();
  /** Subscribe and update_subscription commands in flight, per link (one token each). */
  readonly #asking = new Map<number, Set<object>>();
  /** Unproven sids pushed on while `#asking` was not empty, per link: decided once it is. */
  readonly #pushed = new Map<number, Map<string, Sid>>();

  constructor(deps: OrphanDeps) {
    this.#d = deps;
  }

  /** The server's list no longer shows `sid` (of `channel`) on `link`. */
  add(link: number, sid: Sid, channel: Channel): void {
    this.#waiting.set(link, (this.#waiting.get(link) ?? new Map()).set(sid, channel));
  }

  /**
   * A subscribe reply gave `sid` on `link` to one of our subscriptions: the server holds it for us
   * now, so its pushes are not stray and it must never be unsubscribed as an orphan.
   */
  claimed(link: number, sid: Sid): void {
    const key = String(sid);
    for (const waiting of this.#waiting.get(link)?.keys() ?? []) {
      if (String(waiting) === key) this.#waiting.get(link)?.delete(waiting);
    }
    this.#unproven.get(link)?.delete(key);
    if (this.#resending.has(`${link}:${key}`)) this.#reclaimed.add(`${link}:${key}`);
  }

  /**
   * Runs `run` (a subscribe or update_subscription on `link`, up to the handling of its reply)
   * with the link's pushes under unproven sids kept rather than judged stray; when the last such
   * command of the link ends, an unproven sid pushed on meanwhile that no reply claimed has its
   * unsubscribe sent again.
   */
  async asking<T>(link: number, run: () => Promise<T>): Promise<T> {
    const asking = this.#asking.get(link) ?? new Set<object>();
    this.#asking.set(link, asking);
    const token = {};
    asking.add(token);
    try {
      return await run();
    } finally {
      // A command of a socket reset() forgot decides nothing on the new one.
      if (asking.delete(token) && asking.size === 0 && this.#asking.get(link) === asking) this.#decide(link);
    }
  }

  /** The link has a new socket: the old one's sids are gone with it. */
  reset(link: number): void {
    this.#waiting.delete(link);
    this.#unproven.delete(link);
    this.#asking.delete(link);
    this.#pushed.delete(link);
    for (const set of [this.#resending, this.#reclaimed])
      for (const key of [...set]) if (key.startsWith(`${link}:`)) set.delete(key);
  }

  /** True when `link` has a sid whose unsubscribe the server left unanswered. */
  hasUnproven(link: number): boolean {
    return (this.#unproven.get(link)?.size ?? 0) > 0;
  }

  /**
   * Unsubscribes the waiting sids of `link` (all at once); resolves when each was answered or
   * timed out. A sid in `held` (one of our subscriptions holds it again: a server reusing its
   * numbers) is left alone.
   */
  async unsubscribe(link: number, held: ReadonlySet<Sid | undefined>): Promise<void> {
    const sids = this.#waiting.get(link);
    if (sids === undefined) return;
    this.#waiting.delete(link);
    const gone = [...sids].filter(([sid]) => !held.has(sid));
    await Promise.all(gone.map(([sid, channel]) => this.#unsubscribeOne(link, sid, channel)));
  }

  /**
   * True when a push carrying `sid` on `link` comes from a sid whose unsubscribe went unanswered:
   * the server still holds it. The caller drops the push; the unsubscribe is sent again. False
   * while a subscribe or update_subscription is in flight there (asking()): its reply may give
   * that very sid to us, so the push is kept and its reply decides.
   */
  stray(link: number, sid: Sid): boolean {
    const unproven = this.#unproven.get(link);
    if (unproven === undefined || !unproven.has(String(sid))) return false;
    if ((this.#asking.get(link)?.size ?? 0) > 0) {
      this.#pushed.set(link, (this.#pushed.get(link) ?? new Map()).set(String(sid), sid));
      return false;
    }
    this.#resend(link, sid);
    return true;
  }

  /** The replies are in: a sid pushed on meanwhile and still unproven is the server's stray. */
  #decide(link: number): void {
    const pushed = this.#pushed.get(link);
    this.#pushed.delete(link);
    for (const [key, sid] of pushed ?? []) if (this.#unproven.get(link)?.has(key)) this.#resend(link, sid);
  }

  /** Sends the unsubscribe of an unproven sid again, unless one is already in flight. */
  #resend(link: number, sid: Sid): void {
    const key = `${link}:${String(sid)}`;
    if (this.#resending.has(key)) return;
    this.#resending.add(key);
    void this.#unsubscribeOne(link, sid).finally(() => {
      this.#resending.delete(key);
      this.#reclaimed.delete(key);
    });
  }

  /**
   * Unsubscribes `sid` and reads the verdict. `channel` is given on the first unsubscribe (a
   * pass's), not on a stray push's resend: that one's verdict counts the repair.
   */
  async #unsubscribeOne(link: number, sid: Sid, channel?: Channel): Promise<void> {
    const key = String(sid);
    const repaired = () => {
      if (channel !== undefined) this.#d.onRepaired(channel);
    };
    let reply: Record<string, unknown>;
    try {
      reply = await this.#d.send(link, "unsubscribe", { sid }, OPTIONAL);
    } catch (err) {
      const unknownSid = err instanceof CommandRejectedError && mayMeanDropped(err.code);
      const unanswered =
        err instanceof CommandRejectedError ||
        (err instanceof GatewayError && err.code === "command_timeout");
      const ours = this.#reclaimed.has(`${link}:${key}`); // claimed while this one was unanswered
      if (unknownSid) this.#unproven.get(link)?.delete(key);
      else if (unanswered && !ours)
        this.#unproven.set(link, (this.#unproven.get(link) ?? new Set()).add(key));
      // Anything else (the socket lost): reset() forgets the link's sids, its reconnect resubscribes.
      if (unknownSid || unanswered) repaired();
      return;
    }
    this.#unproven.get(link)?.delete(key);
    if (removedNothing(reply, key)) return repaired();
    this.#d.onListWrong(link);
  }
}

/**
 * True when an unsubscribe reply lists the sids it removed (the mock's `{sids}`; the spec shows no
 * shape) and `key` is not among them: an idempotent "nothing removed", the server did not hold it.
 * A reply without `sids` is read as done.
 * @example removedNothing({ type: "unsubscribed", sids: [] }, "1") // true
 * @example removedNothing({ type: "unsubscribed" }, "1") // false
 */
export function removedNothing(reply: Record<string, unknown>, key: string): boolean {
  const sids = reply.sids;
  return Array.isArray(sids) && !sids.some((s) => String(s) === key);
}
