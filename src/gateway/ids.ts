import type { Channel } from "./types.js";
import { PLATFORM_STATUS_ID } from "./types.js";

const TOKEN_ID = /^\d{1,78}$/;
const CONDITION_ID = /^0x[0-9a-f]{64}$/;
const ADDRESS = /^0x[0-9a-f]{40}$/;

/**
 * Normalises and checks subscription ids before they are sent, so that one bad id cannot get a
 * whole 100-id subscription refused: tokens are decimal strings, conditions and vaults lowercase
 * 0x-hex (lowercased here), `system` takes only "platform_status", wallet-scoped channels none.
 * Duplicates are dropped.
 * @example splitIds("token_book", ["123", "x"]) // { valid: ["123"], invalid: ["x"] }
 */
export function splitIds(channel: Channel, ids: readonly string[]): { valid: string[]; invalid: string[] } {
  const valid = new Set<string>();
  const invalid: string[] = [];
  for (const raw of ids) {
    const id = channel === "condition_lifecycle" || channel === "vault_positions" ? raw.toLowerCase() : raw;
    if (isValidId(channel, id)) valid.add(id);
    else invalid.push(raw);
  }
  return { valid: [...valid], invalid };
}

function isValidId(channel: Channel, id: string): boolean {
  switch (channel) {
    case "condition_lifecycle":
      return CONDITION_ID.test(id);
    case "vault_positions":
      return ADDRESS.test(id);
    case "system":
      return id === PLATFORM_STATUS_ID;
    case "user_orders":
    case "user_fills":
      return false;
    default:
      return TOKEN_ID.test(id);
  }
}
