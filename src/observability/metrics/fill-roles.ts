/** Whether a fill of ours rested (maker) or crossed (taker); `unknown` for orders we never saw placed. */
export type FillRole = "maker" | "taker" | "unknown";

/** The fill fields role attribution reads. */
export interface RoleFill {
  readonly clientOrderId: string | undefined;
  readonly sizeMicro: bigint;
}

/**
 * Attributes fills to maker or taker from what the placements told us, since user_fill carries no
 * role: the part of an order filled at placement (the answer's filledQty) crossed the book, so those
 * fills are taker; later fills of a resting order are maker. A fill that arrives while its placement
 * is still in flight matched on arrival, so it is taker too (and counts against the filledQty the
 * answer then reports). Orders whose placement was not observed are `unknown`. Memory is bounded:
 * the orders answered or filled least recently are forgotten first. The default bound (10,000) is many
 * times the quotes a bot keeps resting (tokens × bands × 2), so only an order that rested unfilled
 * through 10,000 newer placements and then fills is reported `unknown`; at the spec's place limits
 * that is ten minutes of constant requoting.
 */
export class FillRoles {
  readonly #max: number;
  readonly #inFlight = new Map<string, bigint>();
  /** clientOrderId → taker volume left to attribute (0n: every further fill is maker). */
  readonly #answered = new Map<string, bigint>();

  constructor(maxOrders = 10_000) {
    this.#max = maxOrders;
  }

  /** A placement carrying `clientOrderId` left for the exchange. */
  sending(clientOrderId: string): void {
    this.#inFlight.set(clientOrderId, 0n);
    evict(this.#inFlight, this.#max);
  }

  /** Its answer: accepted with `filledMicro` matched at once (0n when it rests), or refused/unknown (undefined). */
  answered(clientOrderId: string, filledMicro: bigint | undefined): void {
    const early = this.#inFlight.get(clientOrderId) ?? 0n;
    this.#inFlight.delete(clientOrderId);
    if (filledMicro === undefined) return;
    const left = filledMicro - early;
    this.#answered.set(clientOrderId, left > 0n ? left : 0n);
    evict(this.#answered, this.#max);
  }

  /** The role of one fill (and what it leaves to attribute). */
  roleOf(fill: RoleFill): FillRole {
    const cid = fill.clientOrderId;
    if (cid === undefined) return "unknown";
    const early = this.#inFlight.get(cid);
    if (early !== undefined) {
      this.#inFlight.set(cid, early + fill.sizeMicro);
      return "taker";
    }
    const left = this.#answered.get(cid);
    if (left === undefined) return "unknown";
    // Re-inserted so that an order still filling is the last to be forgotten.
    this.#answered.delete(cid);
    this.#answered.set(cid, left > fill.sizeMicro ? left - fill.sizeMicro : 0n);
    return left <= 0n ? "maker" : "taker";
  }
}

function evict(m: Map<string, bigint>, max: number): void {
  while (m.size > max) {
    const first = m.keys().next();
    if (first.done === true) return;
    m.delete(first.value);
  }
}
