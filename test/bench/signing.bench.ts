import { keccak256, toHex } from "viem";
import { sign } from "viem/accounts";
import type { Hex } from "../../src/core/types.js";
import { OrderBuilder, type OrderRequest } from "../../src/signing/order-builder.js";
import { PrivateKeySigner } from "../../src/signing/private-key-signer.js";
import type { BenchCase } from "./harness.js";

export const title = "EIP-712 order signing (one order at a time)";

/** Hardhat/anvil account #0: a public test key. */
const KEY: Hex = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
const DIGEST: Hex = "0x6b6a0b54c0e0ac0d6fdb53fe7bcb13b9bb1bfa2a1d40a0c9a1d28e9d4a2c0f3e";

/** A rotating set of orders, so the builder sees varied prices, sides, sizes and both domains. */
function requests(): OrderRequest[] {
  const out: OrderRequest[] = [];
  for (let i = 0; i < 64; i++) {
    out.push({
      market: {
        marketId: `m${i % 4}`,
        tokenId: `7132104567925221259462638553270691275033272857194253228963137931245558399${2563 + i}`,
        outcome: i % 2 === 0 ? "YES" : "NO",
        feeTakerBps: i % 5 === 0 ? null : 200,
        negRisk: i % 3 === 0,
        tickSize: i % 4 === 0 ? "0.001" : "0.01",
      },
      side: i % 2 === 0 ? "buy" : "sell",
      price: i % 4 === 0 ? `0.${String(100 + i * 13).padStart(3, "0")}` : `0.${10 + i}`,
      quantity: `${1 + i * 7}.${(i * 37) % 1000}`,
      expiry: i % 2 === 0 ? 0 : 1_900_000_000 + i,
      clientOrderId: `mm-bench-${i}`,
    });
  }
  return out;
}

export function benches(): BenchCase[] {
  const signer = new PrivateKeySigner(KEY);
  const builder = new OrderBuilder({
    settings: { wallet: signer.address, maker: "wallet", signatureType: 0, defaultFeeRateBps: 100 },
    domain: {
      name: "Integrator Exchange",
      version: "1",
      chainId: 137,
      exchangeContract: "0x4bfb41d5b3570defd03c39a9a4d8de6bd8b8982e",
      negRiskExchangeContract: "0xc5d563a36ae78145c45a50134d48a1215220f80a",
    },
    signer,
  });
  const reqs = requests();
  const digests = Array.from({ length: 64 }, (_, i) => keccak256(toHex(i)));
  let next = 0;
  return [
    {
      name: "raw secp256k1 sign of a fixed digest",
      baseline: true,
      batch: 200,
      run: async (n) => {
        for (let i = 0; i < n; i++) await sign({ hash: DIGEST, privateKey: KEY, to: "hex" });
      },
    },
    {
      // Not a goal, context: nonce-dependent steps of ECDSA (modular inversion) run slower on
      // varying inputs than on one digest repeated, so part of the gap to the baseline is this.
      name: "raw secp256k1 sign of 64 rotating digests",
      batch: 200,
      run: async (n) => {
        for (let i = 0; i < n; i++) await sign({ hash: digests[i % 64] as Hex, privateKey: KEY, to: "hex" });
      },
    },
    {
      name: "build + sign order (11-field)",
      batch: 200,
      run: async (n) => {
        for (let i = 0; i < n; i++) await builder.build(reqs[next++ % reqs.length] as OrderRequest);
      },
    },
  ];
}
