import type { SendOptions } from "./connection.js";
import { CommandRejectedError, GatewayError } from "./errors.js";
import type { Sid } from "./types.js";

/** What the orphan sids need from the sync. */
export interface OrphanDeps {
  send(
    link: number,
    cmd: string,
    params: Record<string, unknown>,
    opts?: SendOptions,
  ): Promise<Record<string, unknown>>;
  /**
   * The server answered the unsubscribe of a sid its list no longer showed as done: it still held
   * it, so that list was wrong.
   */
  onListWrong(link: number): void;
}

/** The reply-optional send: unanswered, it fails alone and the connection is kept. */
const OPTIONAL: SendOptions = { replyOptional: true };

/**
 * Sids the server's list_subscriptions no longer showed (sync.ts audit), per link, and their
 * `unsubscribe`. Each is unsubscribed at the start of the next pass, before its ids are subscribed
 * afresh: refused (an unknown sid) when the server did drop it; answered as done, the list was
 * wrong (onListWrong), and a token is still held under one sid. The unsubscribe is reply-optional
 * (the spec shows no reply for it): unanswered, the connection is kept and the ids are subscribed
 * afresh anyway, but the sid stays "unproven": a push carrying it shows the server still holds it,
 * so that push is dropped (the new sid carries the same) and the unsubscribe is sent again, until
 * the server answers it. Everything of a link is forgotten with its socket (reset).
 */
export class OrphanSids {
  readonly #d: OrphanDeps;
  /** Sids to unsubscribe at the next pass, per link. */
  readonly #waiting = new Map<number, Set<Sid>>();
  /** Sids whose unsubscribe went unanswered, per link (by String(sid): a push may spell it either way). */
  readonly #unproven = new Map<number, Set<string>>();
  /** Unproven sids with an unsubscribe in flight (one at a time however many pushes show them). */
  readonly #resending = new Set<string>();

  constructor(deps: OrphanDeps) {
    this.#d = deps;
  }

  /** The server's list no longer shows `sid` on `link`. */
  add(link: number, sid: Sid): void {
    this.#waiting.set(link, (this.#waiting.get(link) ?? new Set()).add(sid));
  }

  /** The link has a new socket: the old one's sids are gone with it. */
  reset(link: number): void {
    this.#waiting.delete(link);
    this.#unproven.delete(link);
    for (const key of [...this.#resending]) if (key.startsWith(`${link}:`)) this.#resending.delete(key);
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
    const gone = [...sids].filter((sid) => !held.has(sid));
    await Promise.all(gone.map((sid) => this.#unsubscribeOne(link, sid)));
  }

  /**
   * True when a push carrying `sid` on `link` comes from a sid whose unsubscribe went unanswered:
   * the server still holds it. The caller drops the push; the unsubscribe is sent again.
   */
  stray(link: number, sid: Sid): boolean {
    const unproven = this.#unproven.get(link);
    if (unproven === undefined || !unproven.has(String(sid))) return false;
    const key = `${link}:${String(sid)}`;
    if (!this.#resending.has(key)) {
      this.#resending.add(key);
      void this.#unsubscribeOne(link, sid).finally(() => this.#resending.delete(key));
    }
    return true;
  }

  async #unsubscribeOne(link: number, sid: Sid): Promise<void> {
    const key = String(sid);
    try {
      await this.#d.send(link, "unsubscribe", { sid }, OPTIONAL);
    } catch (err) {
      // Refused: the server does not hold it (or will not say more). Lost with the socket: reset.
      if (err instanceof CommandRejectedError) this.#unproven.get(link)?.delete(key);
      else if (err instanceof GatewayError && err.code === "command_timeout")
        this.#unproven.set(link, (this.#unproven.get(link) ?? new Set()).add(key));
      return;
    }
    this.#unproven.get(link)?.delete(key);
    this.#d.onListWrong(link);
  }
}
