import type { Address } from "../../core/types.js";

/** The bot's wallet in every simulation. */
export const BOT: Address = "0x00000000000000000000000000000000000b0b00";

/**
 * The recorded market's resting liquidity (the "crowd"): one order per recorded level, mirrored
 * into the venue so the bot's orders meet the real book. A transient wallet: its closed orders are
 * not kept.
 */
export const CROWD: Address = "0x00000000000000000000000000000000000c0d00";

/** Aggressive flow the models send at the bot's quotes (synthetic fills). Transient too. */
export const FLOW: Address = "0x00000000000000000000000000000000000f1000";

/** Balances of the simulated counterparties: large enough never to bind (10^12 units). */
export const UNBOUNDED_MICRO = 10n ** 18n;
