import { inspect } from "node:util";
import { Wallet } from "ethers";
import { describe, expect, it } from "vitest";
import { MmError } from "../../../src/core/errors.js";
import { PrivateKeySigner } from "../../../src/signing/private-key-signer.js";
import { TEST_KEY, TEST_WALLET } from "./fixtures.js";

const KEY_HEX = TEST_KEY.slice(2);

function leaks(text: string): boolean {
  return text.toLowerCase().includes(KEY_HEX) || text.includes(KEY_HEX.slice(0, 16));
}

describe("PrivateKeySigner", () => {
  it("derives the wallet address", () => {
    expect(new PrivateKeySigner(TEST_KEY).address).toBe(TEST_WALLET.toLowerCase());
    expect(new PrivateKeySigner(`${KEY_HEX.toUpperCase()}\n`).address).toBe(TEST_WALLET.toLowerCase());
  });

  it("never shows the key in String, JSON or util.inspect, alone or nested", () => {
    const signer = new PrivateKeySigner(TEST_KEY);
    const holder = { signer, nested: { list: [signer] } };
    const outputs = [
      String(signer),
      `${signer}`,
      JSON.stringify(signer),
      JSON.stringify(holder),
      inspect(signer),
      inspect(holder, { depth: 10, showHidden: true }),
      inspect(signer, { showHidden: true, customInspect: true }),
    ];
    for (const out of outputs) {
      expect(leaks(out)).toBe(false);
      expect(out.toLowerCase()).toContain(TEST_WALLET.toLowerCase().slice(2));
    }
    expect(Object.keys(signer)).toEqual(["address"]);
  });

  it("refuses bad keys without echoing them", () => {
    const bad = [
      `0x${KEY_HEX.slice(1)}`,
      `0x${"0".repeat(64)}`,
      "0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141",
      `0x${KEY_HEX.slice(0, 62)}zz`,
      "",
    ];
    for (const key of bad) {
      let err: unknown;
      try {
        new PrivateKeySigner(key);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(MmError);
      expect((err as MmError).code).toBe("invalid_private_key");
      const shown = `${String(err)} ${JSON.stringify(err)} ${inspect(err)}`;
      if (key.length > 8) expect(shown.toLowerCase()).not.toContain(key.slice(2, 40).toLowerCase());
    }
  });

  it("signs digests exactly as ethers does (RFC 6979, low-s)", async () => {
    const signer = new PrivateKeySigner(TEST_KEY);
    const wallet = new Wallet(TEST_KEY);
    for (const digest of [
      `0x${"11".repeat(32)}`,
      `0x${"ff".repeat(32)}`,
      `0x${"00".repeat(31)}01`,
    ] as const) {
      expect(await signer.signDigest(digest)).toBe(wallet.signingKey.sign(digest).serialized);
    }
    const err = await signer.signDigest("0x1234").catch((e: unknown) => e);
    expect((err as MmError).code).toBe("invalid_digest");
  });
});
