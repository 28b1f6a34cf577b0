import type { TypedDataField } from "ethers";
import type { Address } from "../../../src/core/types.js";
import type { SigningDomainConfig } from "../../../src/signing/domain.js";
import type { OrderMarket } from "../../../src/signing/order-struct.js";
import { ORDER_FIELDS } from "../../../src/signing/order-type.js";

/** Hardhat/anvil account #0: a public test key, never a real wallet. */
export const TEST_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
/** Its address, EIP-55 checksummed. */
export const TEST_WALLET: Address = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
export const TEST_VAULT: Address = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

export const DOMAIN_CONFIG: SigningDomainConfig = {
  name: "Integrator Exchange",
  version: "1",
  chainId: 137,
  exchangeContract: "0x4bFb41d5B3570DeFd03C39a9A4D8dE6Bd8B8982E",
  negRiskExchangeContract: "0xC5d563A36AE78145C45a50134d48A1215220f80a",
};

export const MARKET: OrderMarket = {
  marketId: "mkt-1",
  tokenId: "71321045679252212594626385532706912750332728571942532289631379312455583992563",
  outcome: "YES",
  feeTakerBps: 200,
  negRisk: false,
  tickSize: "0.01",
};

/** The 11-field Order type in the mutable shape ethers wants. */
export const ETHERS_ORDER_TYPES: Record<string, TypedDataField[]> = {
  Order: ORDER_FIELDS.map((f) => ({ name: f.name, type: f.type })),
};

/** Formats micro-units as a decimal string, the way a caller would write it ("530000" → "0.53"). */
export function weiString(wei: bigint): string {
  const neg = wei < 0n;
  const abs = neg ? -wei : wei;
  const frac = (abs % 1_000_000n).toString().padStart(6, "0").replace(/0+$/, "");
  const int = (abs / 1_000_000n).toString();
  return `${neg ? "-" : ""}${int}${frac === "" ? "" : `.${frac}`}`;
}
