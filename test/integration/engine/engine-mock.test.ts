import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BookTracker } from "../../../src/book/tracker.js";
import { LiveClock } from "../../../src/core/live-clock.js";
import type { TokenMarket } from "../../../src/core/trading.js";
import type { Address, Side } from "../../../src/core/types.js";
import { toWei } from "../../../src/core/wei.js";
import { createEngine, type TradingEngine } from "../../../src/engine/engine.js";
import { HttpExchange } from "../../../src/engine/http-exchange.js";
import { intentSigner } from "../../../src/engine/intent-signer.js";
import { tokenMarkets } from "../../../src/engine/markets.js";
import { ExchangeHttpClient } from "../../../src/exchange/client.js";
import { createMockExchange, type MockExchange } from "../../../src/mock/mock-exchange.js";
import { defaultScenarioPath, loadScenario } from "../../../src/mock/scenario/load.js";
import { parseRiskConfig } from "../../../src/risk/config.js";
import { RiskGuard } from "../../../src/risk/guard.js";
import { OrderBuilder } from "../../../src/signing/order-builder.js";
import { PrivateKeySigner } from "../../../src/signing/private-key-signer.js";
import { USDC } from "../../../src/venue/ledger.js";
import { wireChanges, wireLevels } from "../../../src/venue/wire.js";
import { parseStrategyConfig } from "../../../strategies/registry.js";
import { silentLogger } from "../../support/exchange-fixtures.js";

const CROWD: Address = "0x00000000000000000000000000000000000000c0";
const TAKER: Address = "0x00000000000000000000000000000000000000d0";
const CFG = { defaultTickSize: "0.01", minOrderSize: "1", tickSizes: {}, minOrderSizes: {} };
const BANDS = { name: "bands", params: { bands: [{ margin: "0.03", size: "10" }] } };

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 2_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("engine against the mock exchange over real HTTP (127.0.0.1)", () => {
  const scenario = loadScenario(defaultScenarioPath());
  const wallet = scenario.wallets[0];
  const clock = new LiveClock();
  let mock: MockExchange;
  let client: ExchangeHttpClient;
  let builder: OrderBuilder;
  let markets: TokenMarket[];
  let engine: TradingEngine;

  const crowd = (tokenId: string, side: Side, price: string, qty: string, from: Address = CROWD) => {
    const m = markets.find((x) => x.tokenId === tokenId);
    if (m === undefined) throw new Error("unknown token");
    const timeInForce = from === TAKER ? "ioc" : "gtc";
    const input = { wallet: from, marketId: m.marketId, outcome: m.outcome, side, timeInForce } as const;
    return mock.context.venue.place({ ...input, price: toWei(price, "p"), quantity: toWei(qty, "q") });
  };

  beforeAll(async () => {
    if (wallet?.privateKey === undefined) throw new Error("scenario wallet 0 needs a key");
    mock = await createMockExchange({ scenario, flow: false });
    const { venue } = mock.context;
    for (const w of [CROWD, TAKER]) venue.credit(w, USDC, toWei("100000", "usdc"));
    client = new ExchangeHttpClient({
      baseUrl: mock.httpUrl,
      apiKey: scenario.apiKeys[0]?.key ?? "",
      clock,
      logger: silentLogger(),
      timeoutMs: 5_000,
    });
    builder = new OrderBuilder({
      settings: { wallet: wallet.address, maker: "wallet", signatureType: 0, defaultFeeRateBps: 0 },
      domain: scenario.eip712,
      signer: new PrivateKeySigner(wallet.privateKey),
    });
    const listed = await client.markets.list();
    const slugs = listed
      .filter((m) => m.status === "OPEN" && m.slug.startsWith("golden-boot"))
      .map((m) => m.slug);
    markets = tokenMarkets(listed, CFG, slugs.slice(0, 2)).filter((m) => m.outcomeIndex === 0);
    for (const m of markets)
      for (const w of [CROWD, TAKER]) venue.credit(w, m.tokenId, toWei("10000", "shares"));
  });

  afterAll(async () => {
    await mock.close();
  });

  it("cancels a crashed run's orders, quotes within a second of the books, takes fills, and stops clean", async () => {
    const [first, second] = markets;
    if (first === undefined || second === undefined) throw new Error("need two markets");
    const sign = intentSigner(builder, markets);
    // An order left by an earlier run that crashed.
    const leftover = await sign({
      kind: "place",
      tokenId: first.tokenId,
      marketId: first.marketId,
      clientOrderId: "mm-crashed-0000000000-b0-1",
      quote: { side: "buy", level: 0, priceMicro: 100_000, sizeMicro: 5_000_000n },
      urgencyTicks: 0,
    });
    expect((await client.orders.place(leftover)).kind).toBe("accepted");

    engine = createEngine({
      clock,
      exchange: new HttpExchange(client),
      sign,
      markets,
      strategyFor: () => parseStrategyConfig(BANDS),
      risk: new RiskGuard(parseRiskConfig({})),
      logger: silentLogger(),
      options: { session: "int1" },
      rateLimitState: (e) => client.rateLimit(e),
    });
    const { venue } = mock.context;
    const tracker = new BookTracker({
      clock,
      port: { requestSnapshot: () => true },
      config: { stall: { enabled: false } },
    });
    tracker.onState((s) => engine.onBookState(s));
    tracker.onBook((b) => engine.onBook(b.tokenId, b));
    const unsubscribe = venue.subscribe((e) => {
      if (e.type === "book_changes" && markets.some((m) => m.tokenId === e.tokenId)) {
        tracker.onEvent({
          type: "book_delta",
          tokenId: e.tokenId,
          seq: e.seq,
          prevSeq: e.prevSeq,
          changes: wireChanges(e.changes),
        });
      } else if (e.type === "fill" && e.walletAddress === wallet?.address) {
        const { tradeId, orderId, clientOrderId, tokenId, side, tsMs } = e;
        engine.onFill({
          tradeId,
          orderId,
          clientOrderId,
          tokenId,
          side,
          priceMicro: Number(e.price),
          sizeMicro: e.quantity,
          tsMs,
        });
      }
    });
    try {
      await engine.start();
      expect((await client.orders.open()).map((o) => o.clientOrderId)).not.toContain(
        "mm-crashed-0000000000-b0-1",
      );
      const t0 = Date.now();
      for (const m of markets) {
        crowd(m.tokenId, "buy", "0.40", "100");
        crowd(m.tokenId, "sell", "0.44", "100");
        const s = venue.bookSnapshot(m.tokenId);
        if (s === undefined) throw new Error("no book");
        tracker.onEvent({
          type: "book_snapshot",
          tokenId: m.tokenId,
          seq: s.seq,
          bids: wireLevels(s.bids),
          asks: wireLevels(s.asks),
        });
      }
      const open = await until("quotes", async () => {
        const o = await client.orders.open();
        return o.length === 4 ? o : undefined;
      });
      expect(Date.now() - t0).toBeLessThan(1_000);
      expect(open.map((o) => `${o.side} ${o.price}`).sort()).toEqual([
        "buy 0.39",
        "buy 0.39",
        "sell 0.45",
        "sell 0.45",
      ]);

      crowd(first.tokenId, "sell", "0.39", "104", TAKER); // 100 from the crowd's bid, 4 from ours
      await until("the fill", async () =>
        engine.positionOf(first.tokenId) === 4_000_000n ? true : undefined,
      );

      const stopped = await engine.stop("sigterm", 5_000);
      expect(stopped).toEqual({ openOrders: 0 });
      expect(await client.orders.open()).toEqual([]);
    } finally {
      unsubscribe();
      await engine.stop("cleanup", 1_000);
    }
  });
});
