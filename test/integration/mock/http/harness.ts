import { LiveClock } from "../../../../src/core/live-clock.js";
import { SimClock } from "../../../../src/core/sim-clock.js";
import type { Address, PlaceOrderRequest, Side } from "../../../../src/core/types.js";
import { ExchangeHttpClient } from "../../../../src/exchange/client.js";
import { buildMockContext } from "../../../../src/mock/build-context.js";
import type { MockContext } from "../../../../src/mock/context.js";
import { type HttpListener, listenHttp } from "../../../../src/mock/http/listen.js";
import { httpRoutes } from "../../../../src/mock/http/routes/index.js";
import { defaultScenarioPath, loadScenario } from "../../../../src/mock/scenario/load.js";
import type { MarketScenario, Scenario } from "../../../../src/mock/scenario/types.js";
import { OrderBuilder, type OrderRequest } from "../../../../src/signing/order-builder.js";
import { PrivateKeySigner } from "../../../../src/signing/private-key-signer.js";
import { silentLogger } from "../../../support/exchange-fixtures.js";

/** Mock time at start: after the scenario's expired key (2026-01-01), before markets close (2027). */
export const T0 = Date.parse("2026-06-01T12:00:00.000Z");

/** The default scenario's keys by role (config/mock/default.json order). */
export function keysOf(s: Scenario) {
  const key = (i: number) => s.apiKeys[i]?.key ?? "";
  return {
    trader: key(0),
    readOnly: key(1),
    multiKyc: key(2),
    multiEntity: key(3),
    suspended: key(4),
    revoked: key(5),
    expired: key(6),
    ipAllow: key(7),
    noWallet: key(8),
  };
}

/** The default scenario's wallets by role. */
export const WALLET = {
  /** partner-mm's associated wallet, tier 1. */
  mm: "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
  /** tier 1, 50,000 USDC, no shares. */
  kyc: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
  /** tier 0. */
  tier0: "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc",
  banned: "0x15d34aaf54267db7d7c367839aaf71a00a2c6a65",
} as const satisfies Record<string, Address>;

export interface RawResponse {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
  /** The body when it is a JSON array. */
  list: unknown[];
}

/** A running mock on 127.0.0.1 with a SimClock, plus the helpers the conformance tests share. */
export class MockHarness {
  readonly scenario: Scenario;
  readonly clock: SimClock;
  readonly ctx: MockContext;
  readonly keys: ReturnType<typeof keysOf>;
  readonly #listener: HttpListener;
  readonly #clients: ExchangeHttpClient[] = [];
  #salt = 1n;

  private constructor(scenario: Scenario, clock: SimClock, ctx: MockContext, listener: HttpListener) {
    this.scenario = scenario;
    this.clock = clock;
    this.ctx = ctx;
    this.keys = keysOf(scenario);
    this.#listener = listener;
  }

  static async start(scenario: Scenario = loadScenario(defaultScenarioPath())): Promise<MockHarness> {
    const clock = new SimClock(T0);
    const ctx = buildMockContext({ scenario, clock });
    const listener = await listenHttp(ctx, httpRoutes(ctx));
    return new MockHarness(scenario, clock, ctx, listener);
  }

  get url(): string {
    return this.#listener.url;
  }

  async close(): Promise<void> {
    for (const c of this.#clients) c.close();
    await this.#listener.close();
    this.ctx.venue.dispose();
  }

  /** The real HTTP client, as the bot builds it (retries off, so each test sees one attempt). */
  client(opts: { key?: string; wallet?: string; timeoutMs?: number } = {}): ExchangeHttpClient {
    const c = new ExchangeHttpClient({
      baseUrl: this.url,
      apiKey: opts.key ?? this.keys.trader,
      ...(opts.wallet === undefined ? {} : { userWallet: opts.wallet }),
      clock: new LiveClock(),
      logger: silentLogger(),
      timeoutMs: opts.timeoutMs ?? 5_000,
      retry: { maxAttempts: 1 },
    });
    this.#clients.push(c);
    return c;
  }

  /** Raw request for malformed or header-level cases. */
  async fetch(
    path: string,
    opts: {
      method?: string;
      key?: string;
      wallet?: string;
      xff?: string;
      body?: unknown;
      rawBody?: string;
    } = {},
  ): Promise<RawResponse> {
    const headers: Record<string, string> = {};
    if (opts.key !== undefined) headers["X-Api-Key"] = opts.key;
    if (opts.wallet !== undefined) headers["X-User-Wallet"] = opts.wallet;
    if (opts.xff !== undefined) headers["X-Forwarded-For"] = opts.xff;
    const body = opts.rawBody ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const method = opts.method ?? (body === undefined ? "GET" : "POST");
    const res = await fetch(
      `${this.url}${path}`,
      body === undefined ? { method, headers } : { method, headers, body },
    );
    const text = await res.text();
    const parsed: unknown = text === "" ? {} : JSON.parse(text);
    return {
      status: res.status,
      headers: res.headers,
      body: Array.isArray(parsed) ? {} : (parsed as Record<string, unknown>),
      list: Array.isArray(parsed) ? parsed : [],
    };
  }

  /** A scenario market by symbol. */
  market(symbol: string): MarketScenario {
    const m = this.scenario.markets.find((x) => x.symbol === symbol);
    if (m === undefined) throw new Error(`no market ${symbol} in the scenario`);
    return m;
  }

  /** An OrderBuilder for a scenario wallet with a private key (maker = wallet unless told). */
  builder(
    wallet: Address,
    opts: { maker?: "wallet" | "vault"; vault?: Address; defaultFeeRateBps?: number } = {},
  ): OrderBuilder {
    const w = this.scenario.wallets.find((x) => x.address === wallet);
    if (w?.privateKey === undefined) throw new Error(`wallet ${wallet} has no key in the scenario`);
    return new OrderBuilder({
      settings: {
        wallet,
        maker: opts.maker ?? "wallet",
        vault: opts.vault,
        signatureType: 0,
        defaultFeeRateBps: opts.defaultFeeRateBps ?? 0,
      },
      domain: this.scenario.eip712,
      signer: new PrivateKeySigner(w.privateKey),
      salt: () => this.#salt++,
    });
  }

  /** A signed placement body for `wallet` on market `symbol` (YES unless told). */
  async order(
    wallet: Address,
    symbol: string,
    o: { side: Side; price: string; quantity: string } & Partial<Omit<OrderRequest, "market">> & {
        outcome?: "YES" | "NO";
        feeTakerBps?: number | null;
      },
  ): Promise<PlaceOrderRequest> {
    const m = this.market(symbol);
    const outcome = o.outcome ?? "YES";
    const built = await this.builder(wallet).build({
      market: {
        marketId: m.id,
        tokenId: outcome === "YES" ? m.yesTokenId : m.noTokenId,
        outcome,
        feeTakerBps: o.feeTakerBps === undefined ? m.feeTakerBps : o.feeTakerBps,
        negRisk: m.negRisk,
        tickSize: m.tickSize,
      },
      side: o.side,
      price: o.price,
      quantity: o.quantity,
      expiry: o.expiry ?? 0,
      clientOrderId: o.clientOrderId,
      type: o.type,
      timeInForce: o.timeInForce,
    });
    return built.body;
  }
}

/** Places through the client and insists on a definite reject (returns it for its code and error). */
export async function placeRejected(client: ExchangeHttpClient, body: PlaceOrderRequest) {
  const out = await client.orders.place(body);
  if (out.kind !== "rejected") throw new Error(`expected a reject, got ${out.kind}`);
  return out;
}
