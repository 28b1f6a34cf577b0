import type { TrackedOrder } from "./order-state.js";

/** Ages of orders at one instant (OrderStore.agesAt), ms. */
export interface OrderAges {
  /** Since the order was created (tracked). */
  createdMs(o: TrackedOrder): number;
  /** Since the placement was sent (created, while never sent). */
  sentMs(o: TrackedOrder): number;
  /** Since the order last changed (its updatedAtMs was set). */
  changedMs(o: TrackedOrder): number;
}

/**
 * Ages from the orders' wall stamps at `now`: right on a clock that never steps (a SimClock); a
 * step of the wall clock would move every age by the step.
 * @example wallAges(31_000).sentMs(o) // 31_000 - (o.sentAtMs ?? o.createdAtMs)
 */
export function wallAges(now: number): OrderAges {
  return {
    createdMs: (o) => now - o.createdAtMs,
    sentMs: (o) => now - (o.sentAtMs ?? o.createdAtMs),
    changedMs: (o) => now - o.updatedAtMs,
  };
}

/** An order's last wall change stamp (updatedAtMs) and the monotonic reading when it was seen. */
interface ChangeStamp {
  wall: number;
  mono: number;
}

/**
 * Monotonic stamps of orders beside their wall ones (creation, send, last change), so that their
 * ages are elapsed time whatever the wall clock did. Kept out of TrackedOrder in weak maps: only the
 * unknown-order grace and the renewal before expiry (OrderRenewal) read them, and only a store given
 * a monotonic clock keeps them (a backtest's store pays nothing).
 */
export class MonotonicStamps {
  readonly #mono: () => number;
  readonly #created = new WeakMap<TrackedOrder, number>();
  readonly #sent = new WeakMap<TrackedOrder, number>();
  readonly #changed = new WeakMap<TrackedOrder, ChangeStamp>();

  constructor(mono: () => number) {
    this.#mono = mono;
  }

  /** The order was created (its age since "sent" until it is) or its placement left now. */
  sent(o: TrackedOrder): void {
    const mono = this.#mono();
    // The first call is its creation (OrderStore.track): what its renewal is timed from.
    if (!this.#created.has(o)) this.#created.set(o, mono);
    this.#sent.set(o, mono);
  }

  /** The order may have changed: a new updatedAtMs is a change, dated now. */
  changed(o: TrackedOrder): void {
    const stamp = this.#changed.get(o);
    if (stamp === undefined) this.#changed.set(o, { wall: o.updatedAtMs, mono: this.#mono() });
    else if (stamp.wall !== o.updatedAtMs) {
      stamp.wall = o.updatedAtMs;
      stamp.mono = this.#mono();
    }
  }

  /**
   * Ages as of now: the monotonic clock is read here, so call it in the same synchronous run as the
   * wall reading `now` (used for an order stamped before these stamps were kept).
   */
  agesAt(now: number): OrderAges {
    const mono = this.#mono();
    const wall = wallAges(now);
    return {
      createdMs: (o) => {
        const at = this.#created.get(o);
        return at === undefined ? wall.createdMs(o) : mono - at;
      },
      sentMs: (o) => {
        const at = this.#sent.get(o);
        return at === undefined ? wall.sentMs(o) : mono - at;
      },
      changedMs: (o) => {
        const stamp = this.#changed.get(o);
        return stamp === undefined ? wall.changedMs(o) : mono - stamp.mono;
      },
    };
  }
}
