import { createHash } from "node:crypto";
import { setImmediate as tick } from "node:timers/promises";
import { Signature, SigningKey } from "ethers";
import { recoverAddress } from "viem";
import { afterEach, describe, expect, it } from "vitest";
import type { Hex } from "../../../src/core/types.js";
import { NoncePool } from "../../../src/signing/nonce-pool.js";
import { PrivateKeySigner } from "../../../src/signing/private-key-signer.js";
import { TEST_KEY, TEST_WALLET } from "./fixtures.js";

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const signers: PrivateKeySigner[] = [];

function pooled(size: number): PrivateKeySigner {
  const signer = new PrivateKeySigner(TEST_KEY, { noncePool: size });
  signers.push(signer);
  return signer;
}

function digest(i: number): Hex {
  return `0x${createHash("sha256").update(`order-${i}`).digest("hex")}`;
}

afterEach(() => {
  for (const s of signers.splice(0)) s.close();
});

describe("NoncePool-backed signing", () => {
  it("produces low-s signatures that viem and ethers both recover to the wallet", async () => {
    const signer = pooled(64);
    signer.warmUp();
    const rs = new Set<string>();
    for (let i = 0; i < 64; i++) {
      const hash = digest(i);
      const signature = await signer.signDigest(hash);
      expect(signature).toMatch(/^0x[0-9a-f]{128}(1b|1c)$/);
      expect((await recoverAddress({ hash, signature })).toLowerCase()).toBe(TEST_WALLET.toLowerCase());
      expect(SigningKey.recoverPublicKey(hash, Signature.from(signature))).toBe(
        new SigningKey(TEST_KEY).publicKey,
      );
      const s = BigInt(`0x${signature.slice(66, 130)}`);
      expect(s <= N / 2n).toBe(true);
      rs.add(signature.slice(2, 66));
    }
    // Every nonce was used once: 64 distinct r values.
    expect(rs.size).toBe(64);
  });

  it("falls back to the deterministic RFC 6979 signature when the pool is empty", async () => {
    const plain = new PrivateKeySigner(TEST_KEY);
    const signer = pooled(2);
    signer.warmUp();
    const first = await signer.signDigest(digest(1));
    const second = await signer.signDigest(digest(2));
    const third = await signer.signDigest(digest(3));
    // The two pooled signatures are randomised; the third (pool drained, no macrotask ran yet)
    // is the deterministic one.
    expect(first).not.toBe(await plain.signDigest(digest(1)));
    expect(second).not.toBe(await plain.signDigest(digest(2)));
    expect(third).toBe(await plain.signDigest(digest(3)));
  });

  it("refills in the background, one nonce per macrotask, up to its capacity", async () => {
    const pool = new NoncePool(3);
    try {
      expect(pool.available).toBe(0);
      for (let i = 0; i < 10 && pool.available < 3; i++) await tick();
      expect(pool.available).toBe(3);
      expect(pool.sign(5n, 7n)).toBeDefined();
      expect(pool.available).toBe(2);
      await tick();
      await tick();
      expect(pool.available).toBe(3);
    } finally {
      pool.close();
    }
    expect(pool.available).toBe(0);
    expect(pool.sign(5n, 7n)).toBeUndefined();
  });

  it("rejects a capacity that is not a positive integer", () => {
    expect(() => new NoncePool(0)).toThrow(RangeError);
    expect(() => new NoncePool(1.5)).toThrow(RangeError);
  });
});
