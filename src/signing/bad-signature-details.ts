import type { Address } from "../core/types.js";
import { ORDER_FIELDS, type OrderStruct } from "./order-type.js";

/** One of the 11 fields of the signed order. */
export type OrderFieldName = (typeof ORDER_FIELDS)[number]["name"];

/** A field the exchange rebuilt with another value than the one signed (both as decimal or 0x strings). */
export interface FieldDifference {
  readonly field: OrderFieldName;
  readonly signed: string;
  /** The exchange's value as read, at most 80 characters of it. */
  readonly exchange: string;
}

/**
 * What a `bad_signature` reply says, next to the order mm signed:
 * - `unreadable`: its details carry no platform_canonical_struct with a single readable field;
 * - `signature_invalid`: `recovered` is null, the exchange finds no valid signature at all;
 * - `wallet`: `expected_signer` is another wallet than the one mm signs with;
 * - `fields`: the struct the exchange rebuilt differs from the signed one in `differing`;
 * - `domain`: every readable field agrees (all 11 unless `unreadable` names some), so the two
 *   digests differ by the EIP-712 domain;
 * - `unexplained`: the fields agree and the exchange recovered mm's own wallet, yet refused.
 * `recovered` and `expectedSigner` are what the reply said, lowercased (undefined: absent or not
 * an address; `recovered` null: the spec's "not a valid EIP-712 signature").
 */
export type BadSignatureDiagnosis = {
  readonly recovered: Address | null | undefined;
  readonly expectedSigner: Address | undefined;
} & (
  | { readonly cause: "unreadable" | "signature_invalid" | "unexplained" }
  | { readonly cause: "wallet"; readonly expectedSigner: Address }
  | {
      readonly cause: "fields";
      readonly differing: readonly FieldDifference[];
      readonly unreadable: readonly OrderFieldName[];
    }
  | { readonly cause: "domain"; readonly unreadable: readonly OrderFieldName[] }
);

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const DECIMAL = /^\d{1,78}$/;
const HEX = /^0x[0-9a-fA-F]{1,64}$/;
const UINT256_LIMIT = 1n << 256n;
const SHOWN = 80;
// A platform may spell the struct's fields in snake_case (its envelopes are snake_case).
const SNAKE: Readonly<Record<string, string>> = {
  tokenId: "token_id",
  makerAmount: "maker_amount",
  takerAmount: "taker_amount",
  feeRateBps: "fee_rate_bps",
  signatureType: "signature_type",
};

/**
 * Compares a `bad_signature` reply's details (the spec: `recovered`, `expected_signer`,
 * `platform_canonical_struct`, "compare field by field") with the struct mm signed. The details are
 * the exchange's JSON, read defensively: any shape is accepted and never throws; numbers may come
 * as JSON numbers or decimal (or 0x) strings, side also as BUY/SELL, addresses in any case; a
 * field missing or unreadable (a number beyond 2^53, which JSON cannot carry exactly) is listed as
 * unreadable rather than called different. The struct may also come as a JSON string or under
 * camelCase keys (`platformCanonicalStruct`, `expectedSigner`).
 * @example
 * diagnoseBadSignature(signed, { recovered: "0xab…", expected_signer: wallet,
 *   platform_canonical_struct: { ...fields, feeRateBps: "150" } })
 * // { cause: "fields", differing: [{ field: "feeRateBps", signed: "0", exchange: "150" }], … }
 */
export function diagnoseBadSignature(signed: OrderStruct, details: unknown): BadSignatureDiagnosis {
  const d = asRecord(details) ?? {};
  const rawRecovered = own(d, "recovered");
  const recovered = rawRecovered === null ? null : address(rawRecovered);
  const expectedSigner = address(own(d, "expected_signer") ?? own(d, "expectedSigner"));
  const said = { recovered, expectedSigner };
  if (rawRecovered === null) return { cause: "signature_invalid", ...said };
  if (expectedSigner !== undefined && expectedSigner !== signed.signer) {
    return { cause: "wallet", ...said, expectedSigner };
  }
  const struct = asRecord(own(d, "platform_canonical_struct") ?? own(d, "platformCanonicalStruct"));
  if (struct === undefined) return { cause: "unreadable", ...said };
  const differing: FieldDifference[] = [];
  const unreadable: OrderFieldName[] = [];
  for (const { name, type } of ORDER_FIELDS) {
    const raw = own(struct, name) ?? (SNAKE[name] === undefined ? undefined : own(struct, SNAKE[name]));
    const theirs = type === "address" ? address(raw) : uint(raw, name === "side");
    if (theirs === undefined) {
      unreadable.push(name);
      continue;
    }
    const ours = type === "address" ? String(signed[name]) : BigInt(signed[name]).toString();
    if (theirs !== ours) differing.push({ field: name, signed: ours, exchange: shown(raw) });
  }
  if (unreadable.length === ORDER_FIELDS.length) return { cause: "unreadable", ...said };
  if (differing.length > 0) return { cause: "fields", ...said, differing, unreadable };
  if (recovered === signed.signer) return { cause: "unexplained", ...said };
  return { cause: "domain", ...said, unreadable };
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  if (typeof value === "string" && value.length <= 100_000) {
    try {
      return asRecord(JSON.parse(value));
    } catch {
      return undefined;
    }
  }
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

// Own keys only: a field named `constructor` or `__proto__` must not read Object's.
function own(o: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(o, key) ? o[key] : undefined;
}

function address(value: unknown): Address | undefined {
  return typeof value === "string" && ADDRESS.test(value) ? (value.toLowerCase() as Address) : undefined;
}

/** A uint as its decimal string, or undefined when it cannot be read exactly. */
function uint(value: unknown, side: boolean): string | undefined {
  if (typeof value === "number") {
    return Number.isSafeInteger(value) && value >= 0 ? String(value) : undefined;
  }
  if (typeof value !== "string") return undefined;
  const s = value.trim();
  if (side) {
    const word = s.toUpperCase();
    if (word === "BUY") return "0";
    if (word === "SELL") return "1";
  }
  if (!DECIMAL.test(s) && !HEX.test(s)) return undefined;
  const n = BigInt(s);
  return n < UINT256_LIMIT ? n.toString() : undefined;
}

function shown(value: unknown): string {
  const s = typeof value === "string" ? value : JSON.stringify(value);
  return s.length > SHOWN ? `${s.slice(0, SHOWN)}…` : s;
}
