import { toWei } from "../../../core/wei.js";
import { weiToString } from "../../../venue/wire.js";
import type { WalletRecord } from "../../directory.js";
import { textParam } from "../query.js";
import type { Route } from "../route.js";
import { iso, json } from "./format.js";
import { allTradeRows } from "./me-trades.js";
import { actingWallet, type RouteDeps } from "./shared.js";

const THIRTY_DAYS_MS = 30 * 86_400_000;

/**
 * The acting wallet's reads (portfolio:read; bodies not shown in the spec, so these are the
 * mock's): balances (USDC `total`, `locked` by open orders, `available`), positions (`tokenId`,
 * `quantity` = shares held, `reserved`, `available`, optional `marketId` filter), vault, fee-tier,
 * portfolio (cash plus positions marked at the last trade price) and deposit-limits.
 */
export function meRoutes(deps: RouteDeps): Route[] {
  const { ctx } = deps;
  // A vault is deployed once the wallet is cleared (spec): KYC tier 1+, or partner clearance once onboarded.
  const vaultDeployed = (w: WalletRecord, partnerClears: boolean) =>
    (w.kycTier >= 1 || partnerClears) && (w.usableFromMs === undefined || ctx.clock.now() >= w.usableFromMs);
  const positionsOf = (w: WalletRecord) =>
    ctx.venue.positions(w.address).map((p) => ({
      tokenId: p.tokenId,
      marketId: p.marketId,
      conditionId: p.conditionId,
      outcome: p.outcome,
      outcomeIndex: p.outcomeIndex,
      quantity: weiToString(p.balance),
      reserved: weiToString(p.reserved),
      available: weiToString(p.available),
    }));
  const route = (pattern: string, handler: Route["handler"]): Route => ({
    method: "GET",
    pattern,
    auth: "key",
    scopes: ["portfolio:read"],
    handler,
  });
  return [
    route("/api/me/balances", (rc) => {
      const w = actingWallet(rc);
      const usdc = ctx.venue.balances(w.address).usdc;
      return json({
        walletAddress: w.address,
        vaultAddress: w.vault,
        asset: "USDC",
        total: weiToString(usdc.balance),
        locked: weiToString(usdc.reserved),
        available: weiToString(usdc.available),
      });
    }),
    route("/api/me/positions", (rc) => {
      const w = actingWallet(rc);
      const marketId = textParam(rc.query, "marketId");
      const positions = positionsOf(w).filter((p) => marketId === undefined || p.marketId === marketId);
      return json({ walletAddress: w.address, vaultAddress: w.vault, positions });
    }),
    route("/api/me/vault", (rc) => {
      const w = actingWallet(rc);
      const p = rc.identity?.partner;
      const deployed = vaultDeployed(w, p?.kind === "multi_wallet" && !p.requirePerWalletKyc);
      return json({
        walletAddress: w.address,
        vaultAddress: w.vault,
        deployed,
        status: deployed ? "DEPLOYED" : "NOT_DEPLOYED",
      });
    }),
    route("/api/me/fee-tier", (rc) => {
      const w = actingWallet(rc);
      const since = ctx.clock.now() - THIRTY_DAYS_MS;
      const volume = allTradeRows(ctx, w.address, since).reduce((sum, r) => sum + r.notional, 0n);
      return json({
        walletAddress: w.address,
        tier: "standard",
        makerFeeBps: 0,
        volume30d: weiToString(volume),
      });
    }),
    route("/api/me/portfolio", (rc) => {
      const w = actingWallet(rc);
      const usdc = ctx.venue.balances(w.address).usdc;
      let positionsValue = 0n;
      const positions = ctx.venue.positions(w.address).map((p) => {
        const m = ctx.markets.byId(p.marketId);
        const price =
          m === undefined ? "0" : (deps.markets.outcomePrices(m)[p.outcomeIndex === 0 ? 0 : 1] as string);
        const value = (p.balance * toWei(price, "price")) / 1_000_000n;
        positionsValue += value;
        return {
          tokenId: p.tokenId,
          marketId: p.marketId,
          outcome: p.outcome,
          quantity: weiToString(p.balance),
          price,
          value: weiToString(value),
        };
      });
      return json({
        walletAddress: w.address,
        vaultAddress: w.vault,
        cash: {
          total: weiToString(usdc.balance),
          locked: weiToString(usdc.reserved),
          available: weiToString(usdc.available),
        },
        positions,
        positionsValue: weiToString(positionsValue),
        totalValue: weiToString(usdc.balance + positionsValue),
        asOf: iso(ctx.clock.now()),
      });
    }),
    route("/api/me/deposit-limits", (rc) => {
      const w = actingWallet(rc);
      // Tier 0 has zero caps (spec); onboarded sub-accounts get 100,000; other tiers are not shown: 100,000.
      const caps =
        w.depositCaps ??
        (w.kycTier >= 1
          ? { single: "100000", days30: "100000", months12: "100000" }
          : { single: "0", days30: "0", months12: "0" });
      return json({ walletAddress: w.address, currency: "USDC", ...caps });
    }),
  ];
}
