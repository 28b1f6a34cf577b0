import { randomBytes } from "node:crypto";

const ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

/**
 * A fresh session tag for this process run: 8 lowercase letters and digits (36⁸ ≈ 2.8·10¹²), so the
 * clientOrderIds of a restarted bot never collide with those of the run before.
 * @example randomSessionTag() // "k3v9q0ra"
 */
export function randomSessionTag(bytes: (n: number) => Uint8Array = randomBytes): string {
  // 252 = 7 × 36: bytes at or above it are skipped so every character is equally likely.
  let out = "";
  while (out.length < 8) {
    for (const b of bytes(16)) {
      if (b < 252 && out.length < 8) out += ALPHABET[b % 36];
    }
  }
  return out;
}
