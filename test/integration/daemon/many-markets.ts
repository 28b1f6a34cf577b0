import { createHash } from "node:crypto";
import type { MockExchange } from "../../../src/mock/mock-exchange.js";
import type { MarketScenario, Scenario } from "../../../src/mock/scenario/types.js";
import { rest, SCENARIO } from "./support.js";

const hex32 = (seed: string): string => `0x${createHash("sha256").update(seed).digest("hex")}`;
/** A 77-digit decimal token id, unique per seed. */
const tokenId = (seed: string): string => ((BigInt(hex32(seed)) % 10n ** 76n) + 10n ** 76n).toString();

/**
 * The default scenario with `n` generated binary markets (2n tokens) instead of its own: all OPEN,
 * tick 0.01, fair values spread over 0.20…0.80; the paper wallet and the flow wallet hold shares
 * of every token; the paper partner's rateLimitPerMin is `rateLimitPerMin`.
 * @example const s = manyMarkets(250, 60); // 500 tokens, wallet limits at 0.1×
 */
export function manyMarkets(n: number, rateLimitPerMin = 600): Scenario {
  const event = SCENARIO.events[0];
  if (event === undefined) throw new Error("the default scenario has no event");
  const markets: MarketScenario[] = [];
  for (let i = 0; i < n; i++) {
    const id = `9a7b0c1d-0000-4000-8000-${(500_000 + i).toString().padStart(12, "0")}`;
    markets.push({
      id,
      eventId: event.id,
      symbol: `GEN-${i}`,
      slug: `generated-market-${i}`,
      title: `Generated market ${i}`,
      conditionId: hex32(`condition ${i}`),
      questionId: hex32(`question ${i}`),
      yesTokenId: tokenId(`yes ${i}`),
      noTokenId: tokenId(`no ${i}`),
      status: "OPEN",
      feeTakerBps: 200,
      tickSize: "0.01",
      closesAt: "2099-07-19T19:00:00.000Z",
      negRisk: false,
      initialFairValue: (0.2 + (0.6 * (i % 61)) / 60).toFixed(2),
    });
  }
  const shares = (size: string) =>
    Object.fromEntries(markets.flatMap((m) => [m.yesTokenId, m.noTokenId]).map((t) => [t, size]));
  const [paper, ...rest] = SCENARIO.wallets;
  if (paper === undefined) throw new Error("the default scenario has no wallet");
  return {
    ...SCENARIO,
    partners: SCENARIO.partners.map((p) => (p.id === "partner-mm" ? { ...p, rateLimitPerMin } : p)),
    wallets: [
      { ...paper, shares: shares("5000") },
      ...rest.map((w) =>
        w.address.toLowerCase() === SCENARIO.flow.wallet.toLowerCase()
          ? { ...w, shares: shares("1000000") }
          : w,
      ),
    ],
    markets,
    flow: { ...SCENARIO.flow, enabled: false },
  };
}

/** Rests the other trader's bid and ask on both tokens of every market, ±0.05 around its fair value. */
export function seedAll(mock: MockExchange, scenario: Scenario): void {
  for (const m of scenario.markets) {
    const fair = Number(m.initialFairValue);
    const price = (p: number) => p.toFixed(2);
    rest(mock, m, "buy", price(fair - 0.05), "100", "YES");
    rest(mock, m, "sell", price(fair + 0.05), "100", "YES");
    rest(mock, m, "buy", price(1 - fair - 0.05), "100", "NO");
    rest(mock, m, "sell", price(1 - fair + 0.05), "100", "NO");
  }
}
