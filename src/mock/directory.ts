import type { Clock } from "../core/clock.js";
import type { Address } from "../core/types.js";
import { KeyStore } from "./auth/key-store.js";
import type { PartnerScenario, Scenario, WalletScenario } from "./scenario/types.js";
import { vaultOf } from "./vault.js";

/** A wallet as the mock knows it; mutable by fault injection and onboarding. */
export interface WalletRecord {
  readonly address: Address;
  readonly vault: Address;
  kycTier: number;
  banned: boolean;
  /** Epoch ms from which an auto-onboarded sub-account may trade; undefined = from the start. */
  usableFromMs: number | undefined;
  /** Deposit caps set by auto-onboarding (USDC), informational. */
  depositCaps: { single: string; days30: string; months12: string } | undefined;
}

/** A partner, with a mutable status for fault injection. */
export interface PartnerRecord extends Omit<PartnerScenario, "status"> {
  status: "active" | "suspended";
}

/**
 * Who is who in the mock: partners, keys (hashed), wallets. Shared by the HTTP and WebSocket
 * adapters so that revoking a key or suspending a partner takes effect everywhere at once.
 */
export class Directory {
  readonly keys: KeyStore;
  readonly #partners = new Map<string, PartnerRecord>();
  readonly #wallets = new Map<string, WalletRecord>();
  readonly #clock: Clock;
  readonly #onboardingDelayMs: number;

  constructor(scenario: Scenario, clock: Clock) {
    this.#clock = clock;
    this.#onboardingDelayMs = scenario.timing.onboardingDelayMs;
    this.keys = new KeyStore(scenario.pepper, scenario.apiKeys);
    for (const p of scenario.partners) this.#partners.set(p.id, { ...p });
    for (const w of scenario.wallets) this.#wallets.set(w.address, recordOf(w));
  }

  partner(id: string): PartnerRecord | undefined {
    return this.#partners.get(id);
  }

  wallet(address: string): WalletRecord | undefined {
    return this.#wallets.get(address.toLowerCase());
  }

  /** Every wallet the mock knows, scenario and onboarded. */
  wallets(): WalletRecord[] {
    return [...this.#wallets.values()];
  }

  /**
   * The spec's auto-onboarding for multi_wallet partners without per-wallet KYC: the first request
   * for an unseen wallet creates its user record and vault, sets 100,000 USDC deposit caps and
   * clears it to trade after the onboarding delay. Returns the (new or existing) record.
   */
  onboard(address: Address): WalletRecord {
    return (
      this.wallet(address) ??
      this.#add(address, {
        usableFromMs: this.#clock.now() + this.#onboardingDelayMs,
        depositCaps: { single: "100000", days30: "100000", months12: "100000" },
      })
    );
  }

  /** Registers a wallet seen for the first time under a KYC-requiring partner (tier 0: reads only). */
  remember(address: Address): WalletRecord {
    return this.wallet(address) ?? this.#add(address, { usableFromMs: undefined, depositCaps: undefined });
  }

  #add(address: Address, extra: Pick<WalletRecord, "usableFromMs" | "depositCaps">): WalletRecord {
    const lower = address.toLowerCase() as Address;
    const record: WalletRecord = {
      address: lower,
      vault: vaultOf(lower),
      kycTier: 0,
      banned: false,
      ...extra,
    };
    this.#wallets.set(lower, record);
    return record;
  }
}

function recordOf(w: WalletScenario): WalletRecord {
  return {
    address: w.address,
    vault: vaultOf(w.address),
    kycTier: w.kycTier,
    banned: w.banned,
    usableFromMs: undefined,
    depositCaps: undefined,
  };
}
