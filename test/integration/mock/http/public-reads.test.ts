import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { defaultScenarioPath, loadScenario } from "../../../../src/mock/scenario/load.js";
import { MockHarness } from "./harness.js";

/**
 * The spec: public endpoints "work without a key; sending a key raises the per-partner rate
 * ceiling", and markets:read "raises the rate ceiling". A key without the public scope is no worse
 * than no key: its public reads are answered, held to the unraised ceiling (the rate-limit table's
 * IP bucket, shared with anonymous reads from the same IP). A key that is itself bad is still refused.
 */

let h: MockHarness;
let tradingOnly: string;
beforeAll(async () => {
  // partner-mm's trading key, without any of the public read scopes.
  const scenario = loadScenario(defaultScenarioPath());
  const apiKeys = scenario.apiKeys.map((k, i) =>
    i === 0 ? { ...k, scopes: k.scopes.filter((s) => !s.endsWith(":read") || s === "orders:read") } : k,
  );
  h = await MockHarness.start({ ...scenario, apiKeys });
  tradingOnly = h.keys.trader;
});
afterAll(() => h.close());
// Every test starts at the beginning of a fresh 60 s window.
beforeEach(() => {
  const now = h.clock.now();
  h.clock.advanceTo(now - (now % 60_000) + 120_000);
});

describe("public reads with a key that lacks the read scope", () => {
  it("are answered like anonymous reads (markets, detail, orderbook, trades, events, matches)", async () => {
    const scopes = h.scenario.apiKeys[0]?.scopes ?? [];
    expect(scopes).not.toContain("markets:read");
    expect(scopes).not.toContain("events:read");
    for (const path of [
      "/api/markets",
      "/api/markets/arg-vs-fra-final-arg-win",
      "/api/markets/ARG-WIN/orderbook",
      "/api/markets/ARG-WIN/trades",
      "/api/events",
      "/api/matches",
    ]) {
      const keyed = await h.fetch(path, { key: tradingOnly });
      const anonymous = await h.fetch(path);
      expect(keyed.status, path).toBe(200);
      expect(keyed.body, path).toEqual(anonymous.body);
      expect(keyed.list, path).toEqual(anonymous.list);
    }
  });

  it("read through the bot's client too", async () => {
    const markets = await h.client({ key: tradingOnly }).markets.list();
    expect(markets.map((m) => m.symbol)).toContain("ARG-WIN");
    const book = await h.client({ key: tradingOnly }).markets.orderbook("ARG-WIN");
    expect({ bids: book.bids, asks: book.asks }).toMatchObject({ bids: [], asks: [] }); // no flow here
  });

  it("are held to the unraised ceiling: GET /api/markets is 600/min, one IP bucket with anonymous reads", async () => {
    const xff = "10.77.0.1";
    const first = await h.fetch("/api/markets", { key: tradingOnly, xff });
    expect(first.headers.get("x-ratelimit-limit")).toBe("600");
    expect(first.headers.get("x-ratelimit-remaining")).toBe("599");
    const anon = await h.fetch("/api/markets", { xff });
    expect(anon.headers.get("x-ratelimit-remaining")).toBe("598");
    for (let done = 2; done < 600; done += 50) {
      const n = Math.min(50, 600 - done);
      const batch = await Promise.all(
        Array.from({ length: n }, () => h.fetch("/api/markets", { key: tradingOnly, xff })),
      );
      for (const r of batch) expect(r.status).toBe(200);
    }
    const over = await h.fetch("/api/markets", { key: tradingOnly, xff });
    expect(over.status).toBe(429);
    expect((over.body.error as { code: string }).code).toBe("rate_limited");
    expect((await h.fetch("/api/markets", { xff })).status).toBe(429);
  });

  it("a key that is itself refused (revoked) still gets its 401 on a public read", async () => {
    const res = await h.fetch("/api/markets", { key: h.keys.revoked });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("api_key_revoked");
  });

  it("authenticated endpoints still require their scope", async () => {
    const res = await h.fetch("/api/me/balances", { key: tradingOnly });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      code: "api_key_scope_missing",
      details: { requiredScope: "portfolio:read" },
    });
  });
});
