import type { TimerId } from "../../core/clock.js";
import type { TradeEvent } from "../../venue/events.js";
import { weiToString, wireTradeMatched } from "../../venue/wire.js";
import type { MockContext } from "../context.js";
import { blockNumberAt, orderHash, settlementTxHash } from "./chain.js";
import { isSilenced } from "./feed-faults.js";
import type { Hub } from "./hub.js";
import type { VaultFeed } from "./vault-feed.js";

/**
 * token_trade_matches and token_trade_settlements. A venue trade is pushed at once as
 * trade_matched (the matcher's notice); `timing.settlementDelayMs` later, on the mock's clock, the
 * simulated chain "mines" it: trade_settled (source `chain`, txHash, blockNumber, the maker
 * order's hash) and the vault balance changes of both sides (VaultFeed).
 */
export class TradeFeed {
  readonly #ctx: MockContext;
  readonly #hub: Hub;
  readonly #vaults: VaultFeed;
  readonly #timers = new Set<TimerId>();

  constructor(ctx: MockContext, hub: Hub, vaults: VaultFeed) {
    this.#ctx = ctx;
    this.#hub = hub;
    this.#vaults = vaults;
  }

  onTrade(e: TradeEvent): void {
    if (!isSilenced(this.#ctx.faults, e.tokenId)) {
      this.#hub.publish("token_trade_matches", e.tokenId, "trade_matched", wireTradeMatched(e));
    }
    const id = this.#ctx.clock.setTimer(this.#ctx.scenario.timing.settlementDelayMs, () => {
      this.#timers.delete(id);
      this.#settle(e);
    });
    this.#timers.add(id);
  }

  dispose(): void {
    for (const id of this.#timers) this.#ctx.clock.cancelTimer(id);
    this.#timers.clear();
  }

  #settle(e: TradeEvent): void {
    const tsMs = this.#ctx.clock.now();
    const txHash = settlementTxHash(e.tradeId);
    const blockNumber = blockNumberAt(tsMs);
    if (!isSilenced(this.#ctx.faults, e.tokenId)) {
      this.#hub.publish("token_trade_settlements", e.tokenId, "trade_settled", {
        tokenId: e.tokenId,
        conditionId: e.conditionId,
        outcomeIndex: e.outcomeIndex,
        orderHash: orderHash(e.trade.makerOrderId),
        txHash,
        blockNumber,
        price: weiToString(e.price),
        quantity: weiToString(e.quantity),
        side: e.side,
        source: "chain",
        tsMs,
      });
    }
    this.#vaults.settle(e.tradeId, txHash, blockNumber, tsMs);
  }
}
