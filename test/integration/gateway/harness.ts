import { SimClock } from "../../../src/core/sim-clock.js";
import type { Address } from "../../../src/core/types.js";
import { toWei } from "../../../src/core/wei.js";
import { GatewayClient } from "../../../src/gateway/client.js";
import type { GatewayClientOptions } from "../../../src/gateway/options.js";
import { buildMockContext } from "../../../src/mock/build-context.js";
import type { MockContext } from "../../../src/mock/context.js";
import { MockAdmin } from "../../../src/mock/faults/admin.js";
import { listenHttp } from "../../../src/mock/http/listen.js";
import { httpRoutes } from "../../../src/mock/http/routes/index.js";
import { defaultScenarioPath, loadScenario } from "../../../src/mock/scenario/load.js";
import type { MarketScenario, Scenario } from "../../../src/mock/scenario/types.js";
import { attachGateways, type Gateways } from "../../../src/mock/ws/index.js";
import { wireLevels } from "../../../src/venue/wire.js";

/** Start of simulated time: after the scenario's expired key's expiresAt. */
export const T0 = Date.parse("2026-06-01T00:00:00.000Z");
/** partner-mm's wallet: USDC and shares of every token. */
export const MM_WALLET = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266" as Address;
/** The flow wallet: deep USDC and shares, a second trader. */
export const FLOW_WALLET = "0x9965507d1a55bcc2695c58ba16fb37d819b0a4dc" as Address;

/** A scenario key by partner and flags (the default scenario's keys, looked up rather than copied). */
export function keyOf(
  scenario: Scenario,
  pick: { partner: string; revoked?: boolean; expires?: boolean; allowlisted?: boolean },
): string {
  const k = scenario.apiKeys.find(
    (x) =>
      x.partnerId === pick.partner &&
      x.revoked === (pick.revoked ?? false) &&
      (x.expiresAt !== undefined) === (pick.expires ?? false) &&
      x.ipAllowlist.length > 0 === (pick.allowlisted ?? false),
  );
  if (k === undefined) throw new Error(`no key for ${JSON.stringify(pick)}`);
  return k.key;
}

/** The keyId of a full key string. */
export const keyIdOf = (key: string): string => key.split("_")[2] ?? "";

export interface Mock {
  readonly ctx: MockContext;
  readonly clock: SimClock;
  readonly scenario: Scenario;
  readonly admin: MockAdmin;
  readonly gateways: Gateways;
  /** ws://127.0.0.1:<port> (the client appends /ws/market). */
  readonly wsUrl: string;
  /** http://127.0.0.1:<port>: the spec's HTTP endpoints (mm record reads the markets' statuses there). */
  readonly httpUrl: string;
  /** partner-mm's full-scope key. */
  readonly key: string;
  close(): Promise<void>;
}

/** The mock exchange on 127.0.0.1 (default scenario, SimClock at T0, no flow; its HTTP endpoints, no admin routes). */
export async function startMock(opts: { allowedOrigins?: string[] } = {}): Promise<Mock> {
  const scenario = loadScenario(defaultScenarioPath());
  const clock = new SimClock(T0);
  const ctx = buildMockContext({ scenario, clock });
  const http = await listenHttp(ctx, httpRoutes(ctx));
  const gateways = attachGateways(
    http.server,
    ctx,
    opts.allowedOrigins === undefined ? {} : { allowedOrigins: opts.allowedOrigins },
  );
  const admin = new MockAdmin(ctx, gateways);
  const key = scenario.apiKeys.find(
    (k) => k.partnerId === "partner-mm" && k.scopes.includes("orders:write"),
  )?.key;
  if (key === undefined) throw new Error("scenario has no partner-mm trading key");
  return {
    ctx,
    clock,
    scenario,
    admin,
    gateways,
    wsUrl: http.url.replace(/^http/, "ws"),
    httpUrl: http.url,
    key,
    close: async () => {
      await gateways.close();
      await http.close();
      ctx.venue.dispose();
    },
  };
}

/** A market client of the mock on the mock's SimClock, with a fixed jitter. */
export function marketClient(mock: Mock, over: Partial<GatewayClientOptions> = {}): GatewayClient {
  return new GatewayClient({
    url: mock.wsUrl,
    gateway: "market",
    apiKey: mock.key,
    clock: mock.clock,
    random: () => 0.5,
    ...over,
  });
}

export function market(mock: Mock, i = 0): MarketScenario {
  const m = mock.scenario.markets.filter((x) => x.status === "OPEN")[i];
  if (m === undefined) throw new Error(`no open market ${i}`);
  return m;
}

/** A resting or crossing limit order straight into the venue. */
export function place(
  mock: Mock,
  o: {
    wallet?: Address;
    marketId: string;
    side: "buy" | "sell";
    price: string;
    qty: string;
    outcome?: string;
  },
): void {
  const r = mock.ctx.venue.place({
    wallet: o.wallet ?? MM_WALLET,
    marketId: o.marketId,
    outcome: o.outcome ?? "YES",
    side: o.side,
    price: toWei(o.price),
    quantity: toWei(o.qty),
  });
  if (r.status === "REJECTED") throw new Error(`placement rejected: ${r.code} ${r.message}`);
}

/** A reproducible stream of resting and crossing orders on one market (both outcomes). */
export function churn(mock: Mock, m: MarketScenario, steps: number, seed: number): void {
  let s = seed >>> 0;
  const rnd = () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
  for (let i = 0; i < steps; i++) {
    const side = rnd() < 0.5 ? "buy" : "sell";
    const cents = side === "buy" ? 35 + Math.floor(rnd() * 20) : 46 + Math.floor(rnd() * 20);
    place(mock, {
      wallet: rnd() < 0.5 ? MM_WALLET : FLOW_WALLET,
      marketId: m.id,
      outcome: rnd() < 0.7 ? "YES" : "NO",
      side,
      price: (cents / 100).toFixed(2),
      qty: String(1 + Math.floor(rnd() * 30)),
    });
  }
}

/** The venue's book of a token in the wire shape (depth 100), for comparison with a tracked book. */
export function venueWire(mock: Mock, tokenId: string): { bids: unknown[]; asks: unknown[] } {
  const snap = mock.ctx.venue.bookSnapshot(tokenId, 100);
  if (snap === undefined) throw new Error(`venue has no book ${tokenId}`);
  return { bids: wireLevels(snap.bids), asks: wireLevels(snap.asks) };
}

/**
 * Polls `pred` on real time (the sockets are real) until it holds, advancing the SimClock by
 * `advanceMs` per poll when given (to fire back-off and keepalive timers); throws with `what`.
 */
export async function until(
  pred: () => boolean,
  what: string,
  opts: { timeoutMs?: number; clock?: SimClock; advanceMs?: number } = {},
): Promise<void> {
  const deadline = Date.now() + (opts.timeoutMs ?? 5_000);
  while (!pred()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    if (opts.clock !== undefined && opts.advanceMs !== undefined) opts.clock.advanceBy(opts.advanceMs);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Lets real I/O run for `ms` of wall time. */
export const settle = (ms = 50): Promise<void> => new Promise((r) => setTimeout(r, ms));
