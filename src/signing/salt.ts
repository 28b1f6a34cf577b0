import { randomBytes } from "node:crypto";

/** Where order salts come from; injectable so tests and replays can fix them. */
export type SaltSource = () => bigint;

// One CSPRNG call per 64 salts: most of randomBytes' cost is per call. Salts are public (they
// travel as the body's `nonce`), so holding the next few in memory reveals nothing.
const POOLED = 64;
let pool = Buffer.alloc(0);
let at = 0;

/**
 * A uniformly random uint256 from the OS CSPRNG. The full 256 bits are used: the salt travels as
 * the body's `nonce`, a string, so no JSON-number precision limit applies (README "Assumptions").
 * @example randomSalt() // a bigint in [0, 2^256), different every call
 */
export const randomSalt: SaltSource = () => {
  if (at >= pool.length) {
    pool = randomBytes(32 * POOLED);
    at = 0;
  }
  const hex = pool.toString("hex", at, at + 32);
  at += 32;
  return BigInt(`0x${hex}`);
};
