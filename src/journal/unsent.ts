import type { UnsentRecord } from "./writer.js";

const HOUR_MS = 3_600_000;

/**
 * Counts of intents and cancels that never needed a request, accumulated between two writes. Under
 * load the queue supersedes or sheds ~95 % of the placement intents before sending them (and each
 * cancel of such an intent then needs no request): a row for each was ~95 % of the journal's bytes
 * and of its CPU, for something that never reached the exchange and that restore never reads. The
 * journal keeps how many, per UTC hour, market and reason, instead. Memory is bounded by the keys
 * seen since the last drain (markets × reasons, once per hour bucket).
 * @example const u = new UnsentCounts(); u.add("place", "m1", "shed", now); writer.batch(() => u.drain().forEach(…));
 */
export class UnsentCounts {
  readonly #byKey = new Map<string, UnsentRecord>();

  /** Counts one intent or cancel dropped unsent at `atMs`. */
  add(op: "place" | "cancel", marketId: string, reason: string, atMs: number): void {
    const hourMs = Math.floor(atMs / HOUR_MS) * HOUR_MS;
    this.#merge({ hourMs, op, marketId, reason, n: 1, firstAtMs: atMs, lastAtMs: atMs });
  }

  /** True when counts wait to be written. */
  get pending(): boolean {
    return this.#byKey.size > 0;
  }

  /** The counts so far, forgotten here: write them, or `putBack` them when the write failed. */
  drain(): UnsentRecord[] {
    const out = [...this.#byKey.values()];
    this.#byKey.clear();
    return out;
  }

  /** Adds counts whose write failed back, merged with what came meanwhile, for the next attempt. */
  putBack(records: readonly UnsentRecord[]): void {
    for (const r of records) this.#merge(r);
  }

  #merge(r: UnsentRecord): void {
    const key = `${r.hourMs}\u0000${r.op}\u0000${r.marketId}\u0000${r.reason}`;
    const had = this.#byKey.get(key);
    this.#byKey.set(
      key,
      had === undefined
        ? r
        : {
            ...had,
            n: had.n + r.n,
            firstAtMs: Math.min(had.firstAtMs, r.firstAtMs),
            lastAtMs: Math.max(had.lastAtMs, r.lastAtMs),
          },
    );
  }
}
