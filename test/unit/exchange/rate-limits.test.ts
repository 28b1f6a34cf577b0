import { describe, expect, it } from "vitest";
import {
  matchScore,
  RATE_LIMIT_RULES,
  type RateLimitRule,
  rateLimitsFor,
  scaledLimit,
} from "../../../src/exchange/rate-limits.js";

const summary = (method: string, path: string, opts = {}) =>
  rateLimitsFor(method, path, opts)
    .map((a) => `${a.rule.scope} ${a.limit}/${a.windowMs / 1000}s ${a.rule.bucket}`)
    .sort();

describe("rate-limit table", () => {
  it("gives placement both buckets: ip 1000/60 s and wallet 50/1 s", () => {
    expect(summary("POST", "/api/orders/place")).toEqual(["ip 1000/60s place-ip", "wallet 50/1s place"]);
  });

  it("transcribes the spec's rows", () => {
    const cases: [string, string, string][] = [
      ["POST", "/api/orders/cancel", "wallet 20/1s cancel"],
      ["POST", "/api/orders/cancel-all", "wallet 5/1s cancel-all"],
      ["POST", "/api/me/redemptions", "wallet 10/1s redemptions"],
      ["GET", "/api/orders/open", "wallet 600/60s order-reads"],
      ["GET", "/api/orders/history", "wallet 600/60s order-reads"],
      ["GET", "/api/orders/abc-123", "wallet 600/60s order-reads"],
      ["GET", "/api/orders/abc-123/fills", "wallet 600/60s order-reads"],
      ["GET", "/api/orders/fees-summary", "wallet 600/60s order-reads"],
      ["GET", "/api/markets", "ip 600/60s markets"],
      ["GET", "/api/markets/brazil-wins", "ip 600/60s markets"],
      ["GET", "/api/markets/BRA-W/orderbook", "ip 600/60s markets"],
      ["GET", "/api/markets/BRA-W/trades", "ip 240/60s market-trades"],
      ["GET", "/api/markets/BRA-W/price-history", "ip 240/60s market-trades"],
      ["GET", "/api/markets/BRA-W/traders", "ip 120/60s market-traders"],
      ["GET", "/api/markets/BRA-W/ohlc", "ip 120/60s market-ohlc"],
      ["GET", "/api/me/balances", "wallet 1800/60s me-reads"],
      ["GET", "/api/me/auto-redeem", "wallet 1800/60s me-reads"],
      ["GET", "/api/me/overview", "wallet 180/60s me-overview"],
      ["GET", "/api/me/activity", "wallet 360/60s me-activity"],
      ["GET", "/api/me/favorites", "wallet 120/60s me-favorites"],
      ["GET", "/api/me/deposit-limits", "wallet 120/60s deposit-limits"],
      ["POST", "/api/me/vault/emergency", "wallet 120/60s vault-emergency"],
      ["GET", "/api/me/withdrawals", "wallet 60/60s withdrawal-reads"],
      ["GET", "/api/me/withdrawals/8b9f3a4e", "wallet 60/60s withdrawal-reads"],
      ["GET", "/api/me/withdrawals/deposit-sources", "wallet 60/60s withdrawal-reads"],
      ["GET", "/api/me/withdrawals/fee", "wallet 30/60s withdrawal-fee"],
      ["POST", "/api/me/withdrawals/8b9f3a4e/cancel", "wallet 10/60s withdrawal-cancel"],
      ["POST", "/api/withdrawals/request", "ip 60/60s withdrawal-request"],
      ["GET", "/api/leaderboard", "ip 600/60s leaderboard"],
      ["GET", "/api/search", "ip 60/60s search"],
      ["GET", "/api/search/users", "ip 60/60s search"],
      ["POST", "/api/me/vault/merge-signature", "wallet 10/1s vault-signature"],
    ];
    for (const [method, path, expected] of cases)
      expect(summary(method, path), `${method} ${path}`).toEqual([expected]);
  });

  it("prefers literal segments over parameters (withdrawals/fee is not withdrawals/{id})", () => {
    expect(summary("GET", "/api/me/withdrawals/fee")).toEqual(["wallet 30/60s withdrawal-fee"]);
    expect(matchScore("/api/me/withdrawals/fee", "/api/me/withdrawals/fee")).toBeGreaterThan(
      matchScore("/api/me/withdrawals/{id}", "/api/me/withdrawals/fee") ?? 0,
    );
  });

  it("applies the tighter leaderboard rule only when `search` is present, from the query or the path", () => {
    expect(summary("GET", "/api/leaderboard", { query: { search: "bob" } })).toEqual([
      "ip 120/60s leaderboard-search",
    ]);
    expect(summary("GET", "/api/leaderboard?search=bob&limit=5")).toEqual(["ip 120/60s leaderboard-search"]);
    expect(summary("GET", "/api/leaderboard?x=1")).toEqual(["ip 600/60s leaderboard"]);
  });

  it("combines the vault-signature wallet rule with the /api/vault/* ip umbrella", () => {
    expect(summary("POST", "/api/vault/split-signature")).toEqual([
      "ip 100/60s vault-umbrella",
      "wallet 10/1s vault-signature",
    ]);
    expect(summary("POST", "/api/vault/anything/else")).toEqual(["ip 100/60s vault-umbrella"]);
    expect(summary("POST", "/api/vault")).toEqual([]); // the umbrella needs at least one segment under it
  });

  it("returns nothing for endpoints the spec shows no limit for, or for another method", () => {
    expect(summary("GET", "/api/events")).toEqual([]);
    expect(summary("GET", "/health")).toEqual([]);
    expect(summary("DELETE", "/api/orders/cancel")).toEqual([]);
  });

  it("scales wallet limits by rateLimitPerMin / 600 (floored, at least 1) and leaves ip limits alone", () => {
    const at = (perMin: number) => summary("POST", "/api/orders/place", { rateLimitPerMin: perMin });
    expect(at(1200)).toEqual(["ip 1000/60s place-ip", "wallet 100/1s place"]);
    expect(at(60)).toEqual(["ip 1000/60s place-ip", "wallet 5/1s place"]);
    const cancelAll = RATE_LIMIT_RULES.find((r) => r.bucket === "cancel-all") as RateLimitRule;
    expect(scaledLimit(cancelAll, 60)).toBe(1); // 0.5 floored would block the endpoint entirely
    expect(scaledLimit(cancelAll, 900)).toBe(7);
    expect(() => scaledLimit(cancelAll, 0)).toThrow(RangeError);
  });

  it("has unique bucket ids, positive limits and windows", () => {
    const buckets = RATE_LIMIT_RULES.map((r) => r.bucket);
    expect(new Set(buckets).size).toBe(buckets.length);
    for (const r of RATE_LIMIT_RULES) {
      expect(r.limit).toBeGreaterThan(0);
      expect([1_000, 60_000]).toContain(r.windowMs);
    }
  });
});
