import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { LiveClock } from "../../../src/core/live-clock.js";
import { ExchangeHttpClient } from "../../../src/exchange/client.js";
import { createMockExchange, type MockExchange } from "../../../src/mock/mock-exchange.js";
import { defaultScenarioPath, loadScenario } from "../../../src/mock/scenario/load.js";
import { OrderBuilder } from "../../../src/signing/order-builder.js";
import { PrivateKeySigner } from "../../../src/signing/private-key-signer.js";
import { silentLogger } from "../../support/exchange-fixtures.js";

type Frame = { type: string; id?: unknown; data?: Record<string, unknown>; accepted?: unknown[] } & Record<
  string,
  unknown
>;

/** A WebSocket that collects frames and lets a test wait for one matching a predicate. */
async function openSocket(url: string, headers: Record<string, string>) {
  const ws = new WebSocket(url, { headers });
  const frames: Frame[] = [];
  const waiters: { pred: (f: Frame) => boolean; resolve: (f: Frame) => void }[] = [];
  let closed: { code: number; reason: string } | undefined;
  ws.on("message", (raw) => {
    const f = JSON.parse(String(raw)) as Frame;
    frames.push(f);
    for (const w of waiters.splice(0)) w.pred(f) ? w.resolve(f) : waiters.push(w);
  });
  const closedP = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on("close", (code, reason) => {
      closed = { code, reason: String(reason) };
      resolve(closed);
    }),
  );
  const next = (pred: (f: Frame) => boolean, ms = 5_000) =>
    new Promise<Frame>((resolve, reject) => {
      const seen = frames.find(pred);
      if (seen !== undefined) return resolve(seen);
      const t = setTimeout(() => reject(new Error(`no matching frame in ${ms} ms`)), ms);
      waiters.push({
        pred,
        resolve: (f) => {
          clearTimeout(t);
          resolve(f);
        },
      });
    });
  await next((f) => f.type === "connected");
  return { ws, frames, next, closedP, send: (o: unknown) => ws.send(JSON.stringify(o)) };
}

describe("createMockExchange: the assembled paper venue", () => {
  let mock: MockExchange;
  let client: ExchangeHttpClient;
  let builder: OrderBuilder;
  // The mock keeps only hashes of key secrets; the test reads the clear keys from the file itself.
  const scenario = loadScenario(defaultScenarioPath());
  const s = () => scenario;

  beforeAll(async () => {
    mock = await createMockExchange({ admin: true, scenario });
    const wallet = s().wallets[0];
    if (wallet?.privateKey === undefined) throw new Error("scenario wallet 0 needs a key");
    client = new ExchangeHttpClient({
      baseUrl: mock.httpUrl,
      apiKey: s().apiKeys[0]?.key ?? "",
      clock: new LiveClock(),
      logger: silentLogger(),
      timeoutMs: 5_000,
    });
    builder = new OrderBuilder({
      settings: { wallet: wallet.address, maker: "wallet", signatureType: 0, defaultFeeRateBps: 0 },
      domain: s().eip712,
      signer: new PrivateKeySigner(wallet.privateKey),
    });
  });
  afterAll(async () => {
    await mock.close();
  });

  it("keeps no clear API key secret in its state", () => {
    const secret = (scenario.apiKeys[0]?.key ?? "").split("_").slice(3).join("_");
    expect(secret).toHaveLength(43);
    expect(JSON.stringify(mock.context.scenario)).not.toContain(secret);
    expect(mock.context.scenario.apiKeys[0]?.key).toMatch(/^mm_test_[0-9a-f]{16}_\[hashed\]$/);
  });

  it("binds loopback and serves the spec's conventions", async () => {
    expect(mock.httpUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(mock.wsUrl).toBe(mock.httpUrl.replace("http", "ws"));
    const res = await fetch(`${mock.httpUrl}/api/markets`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-api-version")).toBe("2026-04-01");
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });

  it("a signed order crossing the flow's liquidity fills, and the fill reaches /ws/user and the book reaches /ws/market", async () => {
    const market = s().markets.find((m) => m.status === "OPEN" && m.tickSize === "0.01");
    if (market === undefined) throw new Error("no open 0.01 market");
    const key = s().apiKeys[0]?.key ?? "";
    const marketWs = await openSocket(`${mock.wsUrl}/ws/market`, { "X-Api-Key": key });
    marketWs.send({
      id: 1,
      cmd: "subscribe",
      params: { subscriptions: [{ channel: "token_book", ids: [market.yesTokenId] }] },
    });
    // The flow lays background levels every step; wait until the snapshot or a delta shows an ask.
    const snapshot = await marketWs.next((f) => f.type === "book_snapshot");
    expect(snapshot.data?.tokenId).toBe(market.yesTokenId);
    const levels = (f: Frame, key: string) =>
      f.data === undefined ? [] : (f.data[key] as { side?: string; price: string }[]);
    let asks = levels(snapshot, "asks").map((l) => l.price);
    if (asks.length === 0) {
      const delta = await marketWs.next(
        (f) => f.type === "book_delta" && levels(f, "changes").some((c) => c.side === "sell"),
      );
      asks = levels(delta, "changes")
        .filter((c) => c.side === "sell")
        .map((c) => c.price);
    }
    expect(asks.length).toBeGreaterThan(0); // the flow's background liquidity is live
    const userWs = await openSocket(`${mock.wsUrl}/ws/user`, { "X-Api-Key": key });
    userWs.send({ id: 2, cmd: "subscribe", params: { subscriptions: [{ channel: "user_fills" }] } });
    await userWs.next((f) => f.type === "subscribed");

    const built = await builder.build({
      market: {
        marketId: market.id,
        tokenId: market.yesTokenId,
        outcome: "YES",
        feeTakerBps: market.feeTakerBps,
        negRisk: market.negRisk,
        tickSize: market.tickSize,
      },
      side: "buy",
      price: "0.99",
      quantity: "5",
      expiry: 0,
      clientOrderId: "e2e-cross-1",
    });
    const outcome = await client.orders.place({ ...built.body, timeInForce: "ioc" });
    expect(outcome.kind).toBe("accepted");
    const fill = await userWs.next((f) => f.type === "user_fill");
    expect(fill.data).toMatchObject({
      clientOrderId: "e2e-cross-1",
      side: "buy",
      tokenId: market.yesTokenId,
    });
    marketWs.ws.close();
    userWs.ws.close();
  });

  it("admin over HTTP injects faults; revoking a key closes its sockets with 4401", async () => {
    const fail = await fetch(`${mock.httpUrl}/__admin/fail-next`, {
      method: "POST",
      body: JSON.stringify({ count: 1, status: 503 }),
    });
    expect(fail.status).toBe(200);
    const failed = await fetch(`${mock.httpUrl}/api/markets`);
    expect(failed.status).toBe(503);
    expect(((await failed.json()) as { error: { code: string } }).error.code).toBe("exchange_unavailable");
    expect((await fetch(`${mock.httpUrl}/api/markets`)).status).toBe(200);
    // fail-next's paths filter knows the mock's own routes: a template it serves is taken, and
    // requests elsewhere pass; a route it does not serve is refused (it would never fail anything).
    const filtered = (paths: string[]) =>
      fetch(`${mock.httpUrl}/__admin/fail-next`, {
        method: "POST",
        body: JSON.stringify({ count: 1, status: 502, paths }),
      });
    expect((await filtered(["/api/orders/cancel-all", "/api/markets/{slug}"])).status).toBe(200);
    expect((await fetch(`${mock.httpUrl}/api/markets`)).status).toBe(200);
    const unserved = await filtered(["/api/orders/cancel_all"]);
    expect(unserved.status).toBe(400);
    expect(((await unserved.json()) as { details: { field: string } }).details.field).toBe("paths");
    await fetch(`${mock.httpUrl}/__admin/reset`, { method: "POST", body: "{}" });

    const readOnly = s().apiKeys[1]?.key ?? "";
    const sock = await openSocket(`${mock.wsUrl}/ws/market`, { "X-Api-Key": readOnly });
    const keyId = readOnly.split("_")[2];
    const revoke = await fetch(`${mock.httpUrl}/__admin/revoke-key`, {
      method: "POST",
      body: JSON.stringify({ keyId }),
    });
    expect(revoke.status).toBe(200);
    expect(await sock.closedP).toEqual({ code: 4401, reason: "api_key_revoked" });
  });

  it("without admin: true the /__admin endpoints do not exist", async () => {
    const plain = await createMockExchange({ flow: false });
    try {
      const res = await fetch(`${plain.httpUrl}/__admin/state`);
      expect(res.status).toBe(404);
    } finally {
      await plain.close();
    }
    await expect(fetch(`${plain.httpUrl}/health`)).rejects.toThrow();
  });
});
