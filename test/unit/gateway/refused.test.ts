import { describe, expect, it } from "vitest";
import { refusedIds } from "../../../src/gateway/refused.js";
import type { Channel } from "../../../src/gateway/types.js";

const COND = `0x${"ab".repeat(32)}`;
const VAULT = `0x${"be".repeat(20)}`;

/** A subscription set as GatewayClient's layout answers it (ids normalised as ids.ts does). */
function wants(...held: [Channel, string][]) {
  const set = new Set(held.map(([c, id]) => `${c}:${id}`));
  return (c: Channel, id: string) => set.has(`${c}:${id}`);
}

describe("refusedIds: which subscribed ids a refused frame was about", () => {
  it("token channels: the envelope id and the payload tokenId, subscribed ones only, deduplicated", () => {
    const w = wants(["token_book", "1"], ["token_book", "2"]);
    expect(refusedIds("token_book", { id: "1", data: { tokenId: "1", seq: "x" } }, w)).toEqual(["1"]);
    expect(refusedIds("token_book", { id: "1", data: { tokenId: "2" } }, w)).toEqual(["1", "2"]);
    expect(refusedIds("token_book", { id: "3", data: { tokenId: "1" } }, w)).toEqual(["1"]);
    expect(refusedIds("token_book", { data: { tokenId: "2" } }, w)).toEqual(["2"]);
    expect(refusedIds("token_book", { id: "3", data: { tokenId: 1 } }, w)).toBeUndefined();
    expect(refusedIds("token_book", { id: 1, data: [] }, w)).toBeUndefined();
    // Subscribed on another channel only: nothing of token_book was lost.
    expect(refusedIds("token_book", { id: "9" }, wants(["token_ohlc", "9"]))).toBeUndefined();
  });

  it("conditions and vaults: matched case-insensitively, as they are subscribed lowercased", () => {
    const w = wants(["condition_lifecycle", COND], ["vault_positions", VAULT]);
    expect(refusedIds("condition_lifecycle", { id: COND.toUpperCase(), data: {} }, w)).toEqual([COND]);
    expect(refusedIds("condition_lifecycle", { data: { conditionId: COND } }, w)).toEqual([COND]);
    expect(refusedIds("vault_positions", { id: VAULT, data: { vaultAddress: VAULT } }, w)).toEqual([VAULT]);
  });

  it("system names platform_status; wallet-scoped channels report no ids when subscribed", () => {
    const w = wants(["system", "platform_status"], ["user_fills", ""]);
    expect(refusedIds("system", { data: { frozen: "yes" } }, w)).toEqual(["platform_status"]);
    expect(refusedIds("user_fills", { data: {} }, w)).toEqual([]);
    expect(refusedIds("user_orders", { data: {} }, w)).toBeUndefined();
  });
});
