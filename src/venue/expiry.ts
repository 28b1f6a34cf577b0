import type { Clock, TimerId } from "../core/clock.js";
import { MinHeap } from "./min-heap.js";

interface Due {
  readonly atMs: number;
  readonly seq: number;
  readonly orderId: string;
}

/**
 * Expiry deadlines of resting orders, and one Clock timer armed for the earliest of them.
 *
 * An order with `expiry` (unix seconds) is expired once `now ≥ expiry × 1000`. Two mechanisms
 * enforce it: the timer wakes the venue at the earliest deadline so EXPIRED events go out on time
 * (with SimClock: exactly at the deadline), and the venue also sweeps due orders at the start of
 * every call, because a wall-clock timer may fire late. Together they guarantee no order is ever
 * matched or reported open after its expiry. Entries of orders that ended earlier are skipped
 * when they come due (lazy deletion).
 */
export class ExpirySchedule {
  readonly #heap = new MinHeap<Due>((a, b) => a.atMs < b.atMs || (a.atMs === b.atMs && a.seq < b.seq));
  readonly #clock: Clock;
  readonly #wake: () => void;
  #seq = 0;
  #timer: TimerId | undefined;
  #armedAt: number | undefined;

  /** `wake` runs when the timer fires; it should sweep (`due`) and then call `arm`. */
  constructor(clock: Clock, wake: () => void) {
    this.#clock = clock;
    this.#wake = wake;
  }

  /** Schedules an order's expiry (unix seconds). */
  add(orderId: string, expirySeconds: number): void {
    this.#heap.push({ atMs: expirySeconds * 1000, seq: this.#seq++, orderId });
  }

  /** Pops the ids whose deadline is ≤ now, earliest first. */
  due(now: number): string[] {
    const out: string[] = [];
    for (let top = this.#heap.peek(); top !== undefined && top.atMs <= now; top = this.#heap.peek()) {
      this.#heap.pop();
      out.push(top.orderId);
    }
    return out;
  }

  /** (Re)arms the timer for the earliest pending deadline; a no-op when already armed for it. */
  arm(): void {
    const next = this.#heap.peek()?.atMs;
    if (next === this.#armedAt) return;
    this.disarm();
    if (next === undefined) return;
    this.#armedAt = next;
    this.#timer = this.#clock.setTimer(next - this.#clock.now(), () => {
      this.#timer = undefined;
      this.#armedAt = undefined;
      this.#wake();
    });
  }

  /** Cancels the timer (the sweep at each venue call still expires orders). */
  disarm(): void {
    if (this.#timer !== undefined) this.#clock.cancelTimer(this.#timer);
    this.#timer = undefined;
    this.#armedAt = undefined;
  }
}
