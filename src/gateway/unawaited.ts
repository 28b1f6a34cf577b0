import type { Clock } from "../core/clock.js";

/** At most this many ids are remembered (a burst of requests on a SimClock that does not move). */
const MAX_REMEMBERED = 4_096;

/**
 * Commands sent without waiting for a reply (get_book_snapshot: the spec shows no reply payload
 * for it, and the book_snapshot event that follows is the answer that matters). Their ids are
 * remembered for as long as an awaited command would wait, so that a reply a server does send is
 * recognised and consumed quietly rather than counted as a late reply; after that they are
 * forgotten, so a server that never replies leaves nothing behind. No timers: entries are pruned
 * by age (insertion order is age order) whenever the set is touched.
 * @example
 * const sent = new UnawaitedCommands(clock, 10_000);
 * sent.add("c7", "get_book_snapshot");
 * sent.take("c7"); // "get_book_snapshot" (once)
 */
export class UnawaitedCommands {
  readonly #clock: Clock;
  readonly #ttlMs: number;
  readonly #byId = new Map<string, { readonly cmd: string; readonly at: number }>();

  constructor(clock: Clock, ttlMs: number) {
    this.#clock = clock;
    this.#ttlMs = ttlMs;
  }

  /** Ids remembered now. */
  get size(): number {
    this.#prune();
    return this.#byId.size;
  }

  /** Remembers that command `id` (`cmd`) was sent and nobody waits for its reply. */
  add(id: string, cmd: string): void {
    this.#prune();
    if (this.#byId.size >= MAX_REMEMBERED) {
      const oldest = this.#byId.keys().next();
      if (oldest.done !== true) this.#byId.delete(oldest.value);
    }
    this.#byId.set(id, { cmd, at: this.#clock.now() });
  }

  /** True when a command with `id` was posted lately (its reply is still recognised). */
  has(id: string): boolean {
    this.#prune();
    return this.#byId.has(id);
  }

  /** The command a reply with `id` answers (forgetting it), or undefined when none was sent lately. */
  take(id: string): string | undefined {
    this.#prune();
    const e = this.#byId.get(id);
    if (e === undefined) return undefined;
    this.#byId.delete(id);
    return e.cmd;
  }

  #prune(): void {
    const floor = this.#clock.now() - this.#ttlMs;
    for (const [id, e] of this.#byId) {
      if (e.at > floor) break;
      this.#byId.delete(id);
    }
  }
}
