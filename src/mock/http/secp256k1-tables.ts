/**
 * Just enough secp256k1 to check an ECDSA signature against a known public key quickly: field
 * arithmetic with the curve's fast reduction, Jacobian mixed addition, per-point tables of signed
 * window multiples and the GLV endomorphism split. Only public data goes through it (signatures
 * and public keys), so nothing here needs to be constant-time. Cross-checked against viem's
 * recovery in test/integration/mock/http/signature-check.test.ts.
 */

/** Field prime p = 2²⁵⁶ − 2³² − 977. */
export const P = 0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2fn;
/** Group order n. */
export const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
/** The generator G. */
export const G = {
  x: 0x79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798n,
  y: 0x483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8n,
};
// φ(x, y) = (β·x, y) = λ·(x, y); the GLV basis splits k into k1 + k2·λ with |k1|, |k2| < 2¹²⁸.
const BETA = 0x7ae96a2b657c07106e64479eac3434e99cf0497512f58995c1396c28719501een;
const A1 = 0x3086d221a7d46bcde86c90e49284eb15n;
const B1 = -0xe4437ed6010e88286f547fa90abfe4c3n;
const A2 = 0x114ca50f7a8e2f3f657c1108d9d44cfd8n;
const B2 = A1;
const MASK_256 = (1n << 256n) - 1n;
const FOLD = (1n << 32n) + 977n;
const HALF_BITS = 129;

const mul = (a: bigint, b: bigint): bigint => {
  let r = a * b;
  r = (r & MASK_256) + (r >> 256n) * FOLD;
  r = (r & MASK_256) + (r >> 256n) * FOLD;
  return r >= P ? r - P : r;
};
const add = (a: bigint, b: bigint): bigint => {
  const r = a + b;
  return r >= P ? r - P : r;
};
const sub = (a: bigint, b: bigint): bigint => (a >= b ? a - b : a - b + P);

/** a⁻¹ mod m (extended Euclid); a must be non-zero mod m. */
export function invert(a: bigint, m: bigint): bigint {
  let [r0, r1] = [((a % m) + m) % m, m];
  let [s0, s1] = [1n, 0n];
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1] = [r1, r0 - q * r1];
    [s0, s1] = [s1, s0 - q * s1];
  }
  return ((s0 % m) + m) % m;
}

/** A Jacobian accumulator (x = X/Z², y = Y/Z³; Z = 0 is the point at infinity). */
export class Acc {
  X = 0n;
  Y = 1n;
  Z = 0n;

  /** this += (x2, y2) (affine). */
  addAffine(x2: bigint, y2: bigint): void {
    if (this.Z === 0n) {
      this.X = x2;
      this.Y = y2;
      this.Z = 1n;
      return;
    }
    const zz = mul(this.Z, this.Z);
    const e = sub(mul(x2, zz), this.X);
    const f = sub(mul(y2, mul(this.Z, zz)), this.Y);
    if (e === 0n) {
      if (f === 0n) this.double();
      else this.Z = 0n;
      return;
    }
    const ee = mul(e, e);
    const eee = mul(ee, e);
    const i = mul(this.X, ee);
    const x3 = sub(sub(mul(f, f), eee), add(i, i));
    this.Y = sub(mul(f, sub(i, x3)), mul(this.Y, eee));
    this.X = x3;
    this.Z = mul(this.Z, e);
  }

  double(): void {
    if (this.Z === 0n || this.Y === 0n) {
      this.Z = 0n;
      return;
    }
    const a = mul(this.X, this.X);
    const b = mul(this.Y, this.Y);
    const c = mul(b, b);
    const t = sub(sub(mul(add(this.X, b), add(this.X, b)), a), c);
    const d = add(t, t);
    const e = add(add(a, a), a);
    const x3 = sub(mul(e, e), add(d, d));
    const c8 = add(add(add(c, c), add(c, c)), add(add(c, c), add(c, c)));
    const z3 = mul(this.Y, this.Z);
    this.Y = sub(mul(e, sub(d, x3)), c8);
    this.X = x3;
    this.Z = add(z3, z3);
  }

  copy(): Acc {
    const c = new Acc();
    c.X = this.X;
    c.Y = this.Y;
    c.Z = this.Z;
    return c;
  }

  /** Affine coordinates, or undefined at infinity. */
  affine(): { x: bigint; y: bigint } | undefined {
    if (this.Z === 0n) return undefined;
    const zi = invert(this.Z, P);
    const zi2 = mul(zi, zi);
    return { x: mul(this.X, zi2), y: mul(this.Y, mul(zi2, zi)) };
  }
}

/** Affine forms of many points with one inversion (Montgomery's trick); none may be at infinity. */
function toAffineAll(points: readonly Acc[]): { x: bigint; y: bigint }[] {
  const prefix: bigint[] = [];
  let running = 1n;
  for (const p of points) {
    if (p.Z === 0n) throw new Error("point table hit infinity: not a point of prime order");
    running = mul(running, p.Z);
    prefix.push(running);
  }
  let inv = invert(running, P);
  const out: { x: bigint; y: bigint }[] = new Array(points.length);
  for (let i = points.length - 1; i >= 0; i--) {
    const p = points[i] as Acc;
    const zi = i === 0 ? inv : mul(inv, prefix[i - 1] as bigint);
    inv = mul(inv, p.Z);
    const zi2 = mul(zi, zi);
    out[i] = { x: mul(p.X, zi2), y: mul(p.Y, mul(zi2, zi)) };
  }
  return out;
}

/**
 * Affine multiples d·2^(w·j)·Q for d in 1..2^(w−1) and every window j of a 129-bit scalar: a
 * signed-window multiplication by a half-size scalar is then one mixed addition per window.
 */
export class PointTable {
  readonly window: number;
  readonly #xs: bigint[] = [];
  readonly #ys: bigint[] = [];

  constructor(q: { x: bigint; y: bigint }, window = 8) {
    this.window = window;
    const half = 1 << (window - 1);
    const windows = Math.ceil(HALF_BITS / window) + 1;
    let base = q;
    for (let j = 0; j < windows; j++) {
      const acc = new Acc();
      const row: Acc[] = [];
      for (let d = 1; d <= half; d++) {
        acc.addAffine(base.x, base.y);
        row.push(acc.copy());
      }
      for (const a of toAffineAll(row)) {
        this.#xs.push(a.x);
        this.#ys.push(a.y);
      }
      acc.double(); // 2^(w−1)·base doubled = 2^w·base
      base = toAffineAll([acc])[0] as { x: bigint; y: bigint };
    }
  }

  /** acc += (−1)^negate · k · (φ ? φ(Q) : Q) for 0 ≤ k < 2¹²⁹. */
  addMultiple(acc: Acc, k: bigint, negate: boolean, phi: boolean): void {
    const w = BigInt(this.window);
    const mask = (1 << this.window) - 1;
    const half = 1 << (this.window - 1);
    for (let j = 0; k > 0n; j++) {
      let d = Number(k & BigInt(mask));
      k >>= w;
      if (d > half) {
        d -= 1 << this.window;
        k += 1n;
      }
      if (d === 0) continue;
      const at = j * half + Math.abs(d) - 1;
      const x = this.#xs[at] as bigint;
      const y = this.#ys[at] as bigint;
      acc.addAffine(phi ? mul(x, BETA) : x, d < 0 !== negate ? P - y : y);
    }
  }
}

/** k = k1 + k2·λ (mod n) with signs and magnitudes below 2¹²⁸ (the GLV decomposition). */
function split(k: bigint): { k1: bigint; k1neg: boolean; k2: bigint; k2neg: boolean } {
  const divNearest = (a: bigint, b: bigint) => (a + b / 2n) / b;
  const c1 = divNearest(B2 * k, N);
  const c2 = divNearest(-B1 * k, N);
  let k1 = (((k - c1 * A1 - c2 * A2) % N) + N) % N;
  let k2 = (((-c1 * B1 - c2 * B2) % N) + N) % N;
  const k1neg = k1 > N >> 1n;
  const k2neg = k2 > N >> 1n;
  if (k1neg) k1 = N - k1;
  if (k2neg) k2 = N - k2;
  return { k1, k1neg, k2, k2neg };
}

let generatorTable: PointTable | undefined;

/**
 * True when X = (z/s)·G + (r/s)·Q has x(X) = r and y(X) of the given parity: the ECDSA signature
 * (r, s, recovery bit) over `z` recovers to public key Q exactly when this holds.
 * @example verifyWithTable(new PointTable(pub), BigInt(digest), r, s, v === 28)
 */
export function verifyWithTable(q: PointTable, z: bigint, r: bigint, s: bigint, yOdd: boolean): boolean {
  if (r <= 0n || r >= N || s <= 0n || s >= N) return false;
  generatorTable ??= new PointTable(G, 10);
  const w = invert(s, N);
  const u1 = ((z % N) * w) % N;
  const u2 = (r * w) % N;
  const acc = new Acc();
  for (const [table, u] of [
    [generatorTable, u1],
    [q, u2],
  ] as const) {
    const { k1, k1neg, k2, k2neg } = split(u);
    table.addMultiple(acc, k1, k1neg, false);
    table.addMultiple(acc, k2, k2neg, true);
  }
  const point = acc.affine();
  return point !== undefined && point.x === r && (point.y & 1n) === (yOdd ? 1n : 0n);
}
