/**
 * A reader over one event's `data` object that validates field by field and remembers the first
 * failure, so a parser reads every field in a straight line and checks `r.failed` once at the end
 * (no exceptions on the hot path). Rules follow the spec's conventions: decimals are strings,
 * timestamps `tsMs` are numbers, addresses and hashes are lowercase 0x-hex.
 */
export class FieldReader {
  readonly #d: Record<string, unknown>;
  /** The first field that failed, or undefined while everything read was valid. */
  failed: string | undefined;

  constructor(data: Record<string, unknown>) {
    this.#d = data;
  }

  /** The raw value of a field. */
  raw(name: string): unknown {
    return this.#d[name];
  }

  /** True when the field is present (not undefined and not null). */
  has(name: string): boolean {
    const v = this.#d[name];
    return v !== undefined && v !== null;
  }

  #fail<T>(name: string, fallback: T): T {
    this.failed ??= name;
    return fallback;
  }

  /** A non-empty string. */
  str(name: string): string {
    const v = this.#d[name];
    return typeof v === "string" && v.length > 0 ? v : this.#fail(name, "");
  }

  /** A non-negative decimal string ("0.53", "12"). */
  decimal(name: string): string {
    const v = this.#d[name];
    return typeof v === "string" && DECIMAL.test(v) ? v : this.#fail(name, "0");
  }

  /** A safe non-negative integer. */
  int(name: string): number {
    const v = this.#d[name];
    return typeof v === "number" && Number.isSafeInteger(v) && v >= 0 ? v : this.#fail(name, 0);
  }

  /** A finite number (ms since epoch for `tsMs`). */
  num(name: string): number {
    const v = this.#d[name];
    return typeof v === "number" && Number.isFinite(v) ? v : this.#fail(name, 0);
  }

  bool(name: string): boolean {
    const v = this.#d[name];
    return typeof v === "boolean" ? v : this.#fail(name, false);
  }

  /** A uint256 token id as a decimal string. */
  tokenId(name = "tokenId"): string {
    const v = this.#d[name];
    return typeof v === "string" && TOKEN_ID.test(v) ? v : this.#fail(name, "");
  }

  /** A bytes32 condition id, lowercase 0x-hex. */
  conditionId(name = "conditionId"): string {
    const v = this.#d[name];
    return typeof v === "string" && BYTES32.test(v) ? v : this.#fail(name, "");
  }

  /** A lowercase 0x + 40 hex address. */
  address(name: string): string {
    const v = this.#d[name];
    return typeof v === "string" && ADDRESS.test(v) ? v : this.#fail(name, "");
  }

  /** Lowercase 0x-hex of any even length (tx hashes, order hashes). */
  hex(name: string): string {
    const v = this.#d[name];
    return typeof v === "string" && HEX.test(v) ? v : this.#fail(name, "");
  }

  /** One of the listed strings. */
  oneOf<T extends string>(name: string, values: readonly T[]): T {
    const v = this.#d[name];
    return typeof v === "string" && (values as readonly string[]).includes(v)
      ? (v as T)
      : this.#fail(name, values[0] as T);
  }

  /** Absent (undefined or null) → undefined; present → read with `read`, failing like it. */
  opt<T>(name: string, read: (name: string) => T): T | undefined {
    return this.has(name) ? read.call(this, name) : undefined;
  }

  /**
   * An optional field the bot does not act on (informational, passthrough): read with `read` when
   * present and kept only when valid; an unexpected shape yields undefined and is NOT a failure,
   * so it never costs the event its required fields.
   * @example r.lenient("txHash", r.hex) // "0xab…", or undefined for "", 7, "0xABC"
   */
  lenient<T>(name: string, read: (name: string) => T): T | undefined {
    if (!this.has(name)) return undefined;
    const before = this.failed;
    this.failed = undefined;
    const v = read.call(this, name);
    const ok = this.failed === undefined;
    this.failed = before;
    return ok ? v : undefined;
  }

  /** A point in time of a shape the spec does not give: a non-empty string or a finite number. */
  stamp(name: string): string | number {
    const v = this.#d[name];
    if (typeof v === "string") return this.str(name);
    return this.num(name);
  }

  /**
   * A map of outcome index → decimal amount (market_resolved and vault_position_redeemed
   * `payouts`); an array of decimals is accepted as the same map by position.
   */
  payouts(name: string): Record<string, string> {
    return this.#payouts(name, false);
  }

  /**
   * market_resolved `payouts`: like payouts(), and integer JSON numbers are accepted too (written
   * as decimal strings): the market's payout vector is untyped ("any") and numerators are integers.
   */
  payoutNumerators(name: string): Record<string, string> {
    return this.#payouts(name, true);
  }

  #payouts(name: string, integers: boolean): Record<string, string> {
    const v = this.#d[name];
    const entries: [string, unknown][] = Array.isArray(v)
      ? v.map((x, i) => [String(i), x])
      : typeof v === "object" && v !== null
        ? Object.entries(v)
        : [];
    if (entries.length === 0) return this.#fail(name, {});
    const out: Record<string, string> = {};
    for (const [k, x] of entries) {
      if (!/^\d{1,3}$/.test(k)) return this.#fail(name, {});
      if (typeof x === "string" && DECIMAL.test(x)) out[k] = x;
      else if (integers && typeof x === "number" && Number.isSafeInteger(x) && x >= 0) out[k] = String(x);
      else return this.#fail(name, {});
    }
    return out;
  }
}

const DECIMAL = /^\d{1,40}(\.\d{1,40})?$/;
const TOKEN_ID = /^\d{1,78}$/;
const BYTES32 = /^0x[0-9a-f]{64}$/;
const ADDRESS = /^0x[0-9a-f]{40}$/;
const HEX = /^0x(?:[0-9a-f]{2}){1,256}$/;

/** A plain JSON object (not null, not an array). */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
