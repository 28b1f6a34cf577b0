import { randomBytes } from "node:crypto";
import { invert, mod } from "@noble/curves/abstract/modular";
import { secp256k1 } from "@noble/curves/secp256k1";

const N = secp256k1.CURVE.n;
const HALF_N = N >> 1n;

/** A one-time ECDSA nonce with its expensive part (k·G and k⁻¹) already computed. */
interface Nonce {
  readonly r: bigint;
  readonly kInv: bigint;
  /** Parity of R.y: the recovery id before low-s normalisation. */
  readonly yOdd: 0 | 1;
}

/** A signature's parts: r, s (low-s) and the recovery id (0 or 1). */
export interface SignatureParts {
  readonly r: bigint;
  readonly s: bigint;
  readonly recovery: 0 | 1;
}

/**
 * Precomputed secp256k1 signing nonces, so that signing on the hot path costs a few big-integer
 * multiplications instead of a scalar multiplication (~0.25 ms in JS).
 *
 * Why: a step that requotes two bands signs two orders back to back, and the second one waited
 * for the first one's k·G; with the pool both are ready in microseconds (issue 5's tick-to-order
 * goal). Each nonce is drawn from the OS CSPRNG (node:crypto, rejection-sampled into [1, n−1]),
 * used at most once (taken out of the pool), and refilled one per macrotask while the process is
 * otherwise idle, so refilling never blocks I/O for longer than one scalar multiplication.
 * Signatures are valid ECDSA with low s, but randomised rather than RFC 6979 deterministic; when
 * the pool is empty the caller falls back to the deterministic path.
 */
export class NoncePool {
  readonly #capacity: number;
  readonly #nonces: Nonce[] = [];
  #refilling: NodeJS.Immediate | undefined;
  #closed = false;

  /** @param capacity nonces kept ready (≥ 1); refilling starts at once. */
  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError(`nonce pool capacity must be a positive integer, got ${capacity}`);
    }
    this.#capacity = capacity;
    this.#schedule();
  }

  /** Nonces ready now. */
  get available(): number {
    return this.#nonces.length;
  }

  /**
   * Signs `z` (the digest as an integer) with private scalar `d` using a pooled nonce, or returns
   * undefined when none is ready (the caller signs deterministically instead).
   */
  sign(z: bigint, d: bigint): SignatureParts | undefined {
    const nonce = this.#nonces.pop();
    this.#schedule();
    if (nonce === undefined) return undefined;
    let s = mod(nonce.kInv * mod(z + nonce.r * d, N), N);
    if (s === 0n) return undefined;
    let recovery = nonce.yOdd;
    if (s > HALF_N) {
      s = N - s;
      recovery = recovery === 0 ? 1 : 0;
    }
    return { r: nonce.r, s, recovery };
  }

  /** Computes nonces synchronously until the pool is full (tests, benchmarks' warm-up). */
  fill(): void {
    while (this.#nonces.length < this.#capacity) this.#add();
  }

  /** Stops refilling and forgets every nonce. */
  close(): void {
    this.#closed = true;
    if (this.#refilling !== undefined) clearImmediate(this.#refilling);
    this.#refilling = undefined;
    this.#nonces.length = 0;
  }

  #schedule(): void {
    if (this.#closed || this.#refilling !== undefined) return;
    if (this.#nonces.length >= this.#capacity) return;
    this.#refilling = setImmediate(() => {
      this.#refilling = undefined;
      if (this.#closed) return;
      this.#add();
      this.#schedule();
    });
    // The pool never keeps a process alive.
    this.#refilling.unref();
  }

  #add(): void {
    const k = randomScalar();
    const point = secp256k1.ProjectivePoint.BASE.multiply(k).toAffine();
    // x ≥ n would need recovery ids 2/3, which Ethereum's v (27/28) cannot express: skip it.
    if (point.x >= N) return;
    const r = point.x;
    if (r === 0n) return;
    this.#nonces.push({ r, kInv: invert(k, N), yOdd: (point.y & 1n) === 1n ? 1 : 0 });
  }
}

/** A uniform scalar in [1, n−1] from the OS CSPRNG (rejection sampling: no modulo bias). */
function randomScalar(): bigint {
  for (;;) {
    const k = BigInt(`0x${randomBytes(32).toString("hex")}`);
    if (k > 0n && k < N) return k;
  }
}
