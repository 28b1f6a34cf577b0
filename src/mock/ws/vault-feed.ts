import type { Address } from "../../core/types.js";
import type { FillEvent } from "../../venue/events.js";
import { weiToString } from "../../venue/wire.js";
import type { MockContext } from "../context.js";
import { vaultOf } from "../vault.js";
import type { Hub } from "./hub.js";

/** Fills of one (wallet, token) within one venue operation, and the balance after all of them. */
interface FillGroup {
  readonly finalBalance: bigint;
  readonly fills: PendingFill[];
}

interface PendingFill {
  readonly fill: FillEvent;
  /** Change of the wallet's share balance by this fill (net of a fee paid in shares). */
  readonly delta: bigint;
  readonly group: FillGroup;
}

/**
 * The vault_positions channel: one `vault_position_balance_changed` (reason OUTF) per fill and
 * per side, pushed when the trade settles (with the settlement's txHash and blockNumber), to
 * subscribers of the wallet's own vault.
 *
 * `balanceAfter` is the wallet's share balance right after that fill, as the chain would apply
 * the fills one by one. The venue reports balances only after a whole operation, so the first
 * fill of a (wallet, token) in an operation reads the balance once, and each fill's figure is that
 * balance minus the deltas of the same operation's later fills. `endOperation` marks the boundary
 * (Feeds calls it on order_placed, which opens a placement, and on book_changes, which closes
 * every operation that filled).
 */
export class VaultFeed {
  readonly #ctx: MockContext;
  readonly #hub: Hub;
  readonly #byTrade = new Map<string, PendingFill[]>();
  readonly #vaults = new Map<string, Address>();
  #operation: Map<string, FillGroup> | undefined;

  constructor(ctx: MockContext, hub: Hub) {
    this.#ctx = ctx;
    this.#hub = hub;
  }

  onFill(e: FillEvent): void {
    this.#operation ??= new Map();
    const key = `${e.walletAddress}|${e.tokenId}`;
    let group = this.#operation.get(key);
    if (group === undefined) {
      group = { finalBalance: this.#balance(e.walletAddress, e.tokenId), fills: [] };
      this.#operation.set(key, group);
    }
    const shareFee = e.fee.asset === "shares" ? e.fee.amount : 0n;
    const pending: PendingFill = {
      fill: e,
      delta: (e.side === "buy" ? e.quantity : -e.quantity) - shareFee,
      group,
    };
    group.fills.push(pending);
    const list = this.#byTrade.get(e.tradeId);
    if (list === undefined) this.#byTrade.set(e.tradeId, [pending]);
    else list.push(pending);
  }

  endOperation(): void {
    this.#operation = undefined;
  }

  /** The trade settled on the (simulated) chain: push each side's balance change. */
  settle(tradeId: string, txHash: string, blockNumber: number, tsMs: number): void {
    const fills = this.#byTrade.get(tradeId);
    this.#byTrade.delete(tradeId);
    for (const p of fills ?? []) {
      const vault = this.#vaultOf(p.fill.walletAddress);
      if (!this.#hub.has("vault_positions", vault)) continue;
      const later = p.group.fills.slice(p.group.fills.indexOf(p) + 1);
      const balanceAfter = later.reduce((b, f) => b - f.delta, p.group.finalBalance);
      this.#hub.publish("vault_positions", vault, "vault_position_balance_changed", {
        vaultAddress: vault,
        tokenId: p.fill.tokenId,
        conditionId: p.fill.conditionId,
        outcomeIndex: p.fill.outcomeIndex,
        balanceAfter: weiToString(balanceAfter),
        reason: "OUTF",
        txHash,
        blockNumber,
        tsMs,
      });
    }
  }

  #balance(wallet: Address, tokenId: string): bigint {
    return this.#ctx.venue.positions(wallet).find((p) => p.tokenId === tokenId)?.balance ?? 0n;
  }

  #vaultOf(wallet: Address): Address {
    const known = this.#vaults.get(wallet);
    if (known !== undefined) return known;
    const v = vaultOf(wallet);
    this.#vaults.set(wallet, v);
    return v;
  }
}
