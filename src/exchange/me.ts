import {
  type Balances,
  balances,
  meFees,
  meTrades,
  type OpaqueRecord,
  opaque,
  type Position,
  positions,
  type TradeListPage,
  type VaultInfo,
  vault,
} from "./assumptions.js";
import type { ExchangeCaller } from "./caller.js";
import { allPages, allPagesAt } from "./list-pages.js";
import type { QueryParams } from "./paths.js";
import type { FeeRow } from "./types.js";

/**
 * The acting wallet's reads (scope portfolio:read). Their parameters and bodies are not shown in the spec
 * beyond the trade and fee rows; see assumptions.ts for each shape. Query parameters pass through.
 */
export class MeApi {
  readonly #caller: ExchangeCaller;

  constructor(caller: ExchangeCaller) {
    this.#caller = caller;
  }

  /** GET /api/me/balances. */
  balances(): Promise<Balances> {
    return this.#caller.call({ method: "GET", route: "/api/me/balances", parse: balances });
  }

  /** GET /api/me/positions, every page (allPages: its paging is not shown). */
  positions(query: QueryParams = {}): Promise<Position[]> {
    return allPages(this.#caller, "/api/me/positions", query, positions);
  }

  /**
   * GET /api/me/positions with the exchange's time of the read: the first page's `X-Server-Time`
   * (undefined when absent). The spec shows no as-of field on positions; the header is the
   * exchange-clock instant the holdings stand for, comparable with user_fill `tsMs` and trade
   * `createdAt` (the engine's start-up baseline splits fills by it).
   */
  async positionsAt(
    query: QueryParams = {},
  ): Promise<{ positions: Position[]; serverTimeMs: number | undefined }> {
    const r = await allPagesAt(this.#caller, "/api/me/positions", query, positions);
    return { positions: r.items, serverTimeMs: r.serverTimeMs };
  }

  /**
   * GET /api/me/trades: settled trades with the per-wallet fee.
   * @example const { trades } = await client.me.trades({ marketId, limit: 100 });
   */
  trades(query: QueryParams = {}): Promise<TradeListPage> {
    return this.#caller.call({ method: "GET", route: "/api/me/trades", query, parse: meTrades });
  }

  /** GET /api/me/fees: one row per (tradeId, role). */
  fees(query: QueryParams = {}): Promise<FeeRow[]> {
    return this.#caller.call({ method: "GET", route: "/api/me/fees", query, parse: meFees });
  }

  /** GET /api/me/fee-tier. */
  feeTier(): Promise<OpaqueRecord> {
    return this.#caller.call({ method: "GET", route: "/api/me/fee-tier", parse: opaque });
  }

  /** GET /api/me/portfolio. */
  portfolio(): Promise<OpaqueRecord> {
    return this.#caller.call({ method: "GET", route: "/api/me/portfolio", parse: opaque });
  }

  /** GET /api/me/vault. */
  vault(): Promise<VaultInfo> {
    return this.#caller.call({ method: "GET", route: "/api/me/vault", parse: vault });
  }

  /** GET /api/me/deposit-limits. */
  depositLimits(): Promise<OpaqueRecord> {
    return this.#caller.call({ method: "GET", route: "/api/me/deposit-limits", parse: opaque });
  }
}
