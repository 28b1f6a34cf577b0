/**
 * Identifier source of the venue, injected so a run is reproducible: the same seed and the same
 * sequence of calls give the same order and trade ids.
 */
export interface VenueIds {
  orderId(): string;
  tradeId(): string;
}

const MASK64 = (1n << 64n) - 1n;

/**
 * splitmix64 (Steele, Lea, Flood 2014): a tiny, well-mixed 64-bit generator. Enough for ids; not
 * cryptographic and never used for secrets.
 */
export class SplitMix64 {
  #state: bigint;

  constructor(seed: bigint | number) {
    this.#state = BigInt.asUintN(64, BigInt(seed));
  }

  /** Next 64-bit value as an unsigned bigint. */
  next(): bigint {
    this.#state = (this.#state + 0x9e3779b97f4a7c15n) & MASK64;
    let z = this.#state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK64;
    return z ^ (z >> 31n);
  }
}

/**
 * Seeded, time-ordered UUIDs (UUIDv7 layout: a 48-bit ordering prefix, version 7, variant,
 * random rest). The prefix is a counter starting at a seeded offset, so ids sort in creation
 * order: keyset lists keyed by (createdAt, id) then append instead of inserting mid-array when
 * many orders share a millisecond. Any id source is correct; an ordered one is faster.
 * @example seededVenueIds(42).orderId() // the same uuid on every run with seed 42
 */
export function seededVenueIds(seed: bigint | number): VenueIds {
  const rng = new SplitMix64(seed);
  let counter = rng.next() >> 24n; // 40 random bits of headroom below 2^48
  const uuid = (): string => {
    counter += 1n;
    const r1 = rng.next();
    const r2 = rng.next();
    const hi = (counter << 16n) | 0x7000n | (r1 & 0xfffn); // 48-bit prefix, version 7, 12 random bits
    const lo = (r2 & 0x3fffffffffffffffn) | 0x8000000000000000n; // RFC 4122 variant
    const s = hi.toString(16).padStart(16, "0") + lo.toString(16).padStart(16, "0");
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  };
  return { orderId: uuid, tradeId: uuid };
}

/**
 * Readable counter ids ("o-1", "t-1"), for tests and logs where a human reads the ids. Ids are
 * zero-padded so string order equals creation order.
 */
export function counterVenueIds(): VenueIds {
  let orders = 0;
  let trades = 0;
  return {
    orderId: () => `o-${String(++orders).padStart(9, "0")}`,
    tradeId: () => `t-${String(++trades).padStart(9, "0")}`,
  };
}
