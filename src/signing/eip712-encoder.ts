import { bytesToHex, type Hex, keccak256, stringToBytes } from "viem";
import { ValidationError } from "../core/errors.js";

/** One member of an EIP-712 struct type, as in `types.Order = [{ name: "salt", type: "uint256" }, …]`. */
export interface Eip712Field {
  readonly name: string;
  /** `uint8` … `uint256` (multiples of 8), `address` or `string`. */
  readonly type: string;
}

/**
 * A compiled EIP-712 struct type. The type hash is computed once at compile time; `hashStruct`
 * only lays out 32-byte words in the declared field order and hashes them.
 */
export interface StructEncoder<T extends object> {
  readonly primaryType: string;
  readonly fields: readonly Eip712Field[];
  /** `encodeType` of EIP-712, e.g. `Order(uint256 salt,address maker,…)`. */
  readonly encodedType: string;
  /** keccak256(encodedType). */
  readonly typeHash: Hex;
  /** hashStruct(value) = keccak256(typeHash ‖ encodeData(value)); a fresh 32-byte array. */
  hashStruct(value: T): Uint8Array;
}

type Writer = (word: Uint8Array, view: DataView, offset: number, value: unknown, field: string) => void;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const MASK_64 = (1n << 64n) - 1n;

/**
 * Compiles a flat EIP-712 struct type (no nested structs, no arrays). Field order is taken from
 * `fields`, so the same code serves any layout, e.g. mm's 11-field Order and Polymarket's 12-field one.
 * Throws ValidationError `unsupported_eip712_type` for a type it cannot encode.
 * @example
 * const enc = createStructEncoder<{ a: bigint; b: Address }>("Pair", [
 *   { name: "a", type: "uint256" },
 *   { name: "b", type: "address" },
 * ]);
 * enc.hashStruct({ a: 1n, b: "0x0000000000000000000000000000000000000000" });
 */
export function createStructEncoder<T extends object>(
  primaryType: string,
  fields: readonly Eip712Field[],
): StructEncoder<T> {
  if (!IDENTIFIER.test(primaryType)) unsupported(`primary type name ${JSON.stringify(primaryType)}`);
  const seen = new Set<string>();
  const writers: Writer[] = fields.map((f) => {
    if (!IDENTIFIER.test(f.name) || seen.has(f.name)) unsupported(`field name ${JSON.stringify(f.name)}`);
    seen.add(f.name);
    return writerFor(f.type);
  });
  const frozen = Object.freeze(fields.map((f) => Object.freeze({ name: f.name, type: f.type })));
  const encodedType = `${primaryType}(${frozen.map((f) => `${f.type} ${f.name}`).join(",")})`;
  const typeHashBytes = keccak256(stringToBytes(encodedType), "bytes");
  const names = frozen.map((f) => f.name);
  const size = 32 * (names.length + 1);

  return {
    primaryType,
    fields: frozen,
    encodedType,
    typeHash: bytesToHex(typeHashBytes),
    hashStruct(value: T): Uint8Array {
      // A fresh zeroed buffer per call: words are only partly written (addresses, small uints) and
      // the encoder must stay re-entrant.
      const buf = new Uint8Array(size);
      const view = new DataView(buf.buffer);
      buf.set(typeHashBytes, 0);
      const record = value as Record<string, unknown>;
      for (let i = 0; i < names.length; i++) {
        const name = names[i] as string;
        (writers[i] as Writer)(buf, view, 32 * (i + 1), record[name], name);
      }
      return keccak256(buf, "bytes");
    },
  };
}

/**
 * The EIP-712 signing digest: keccak256(0x19 ‖ 0x01 ‖ domainSeparator ‖ structHash).
 * @example typedDataDigest(domainSeparatorBytes(domain), orderEncoder.hashStruct(order))
 */
export function typedDataDigest(domainSeparator: Uint8Array, structHash: Uint8Array): Hex {
  const buf = new Uint8Array(66);
  buf[0] = 0x19;
  buf[1] = 0x01;
  buf.set(domainSeparator, 2);
  buf.set(structHash, 34);
  return keccak256(buf);
}

function writerFor(type: string): Writer {
  if (type === "address") return writeAddress;
  if (type === "string") return writeString;
  const m = /^uint(\d{1,3})$/.exec(type);
  const bits = m === null ? Number.NaN : Number(m[1]);
  if (!(bits >= 8 && bits <= 256 && bits % 8 === 0)) unsupported(`field type ${JSON.stringify(type)}`);
  const limit = 1n << BigInt(bits);
  return (_buf, view, offset, value, field) => {
    const v = toUint(value, field, type);
    if (v >= limit) badValue(field, type, "out of range");
    view.setBigUint64(offset + 24, v & MASK_64);
    if (bits > 64) {
      view.setBigUint64(offset + 16, (v >> 64n) & MASK_64);
      view.setBigUint64(offset + 8, (v >> 128n) & MASK_64);
      view.setBigUint64(offset, v >> 192n);
    }
  };
}

function toUint(value: unknown, field: string, type: string): bigint {
  if (typeof value === "bigint") {
    if (value < 0n) badValue(field, type, "negative");
    return value;
  }
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  return badValue(field, type, `expected a non-negative bigint or safe integer, got ${typeof value}`);
}

function writeAddress(buf: Uint8Array, _view: DataView, offset: number, value: unknown, field: string): void {
  if (typeof value !== "string" || !ADDRESS.test(value)) badValue(field, "address", "not a 20-byte 0x-hex");
  buf.set(Buffer.from(value.slice(2), "hex"), offset + 12);
}

function writeString(buf: Uint8Array, _view: DataView, offset: number, value: unknown, field: string): void {
  if (typeof value !== "string") badValue(field, "string", `got ${typeof value}`);
  buf.set(keccak256(stringToBytes(value), "bytes"), offset);
}

function unsupported(what: string): never {
  throw new ValidationError("unsupported_eip712_type", `EIP-712 encoder cannot handle ${what}`, { what });
}

function badValue(field: string, type: string, reason: string): never {
  throw new ValidationError("invalid_eip712_value", `EIP-712 field ${field} (${type}): ${reason}`, {
    field,
    type,
    reason,
  });
}
