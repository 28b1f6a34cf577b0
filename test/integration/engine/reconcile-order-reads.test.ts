import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Address } from "../../../src/core/types.js";
import { toWei } from "../../../src/core/wei.js";
import { createEngine, type TradingEngine } from "../../../src/engine/engine.js";
import type { EngineEvent } from "../../../src/engine/engine-events.js";
import { HttpExchange } from "../../../src/engine/http-exchange.js";
import { intentSigner } from "../../../src/engine/intent-signer.js";
import { tokenMarkets } from "../../../src/engine/markets.js";
import { rateLimitsFor } from "../../../src/exchange/rate-limits.js";
import type { RateVerdict } from "../../../src/mock/rate-limiter.js";
import { parseRiskConfig } from "../../../src/risk/config.js";
import { RiskGuard } from "../../../src/risk/guard.js";
import { USDC } from "../../../src/venue/ledger.js";
import { parseStrategyConfig } from "../../../strategies/registry.js";
import { silentLogger } from "../../support/exchange-fixtures.js";
import { MockHarness, WALLET } from "../mock/http/harness.js";
import { pumpClock } from "./pump-clock.js";
import { rateLimitedScenario } from "./rate-limited-scenario.js";

/** The partner's rateLimitPerMin: 0.1× the baseline, so the wallet may read orders 60 times a minute. */
const RATE_LIMIT_PER_MIN = 60;
const ORDER_READS_PER_MIN = 60;
/** Orders of the bot's wallet the engine never placed, each filled once: one lookup per trade. */
const FOREIGN_ORDERS = 80;
/** Order reads another process on the same wallet spends just before the reconcile. */
const FOREIGN_READS = 55;
const TAKER: Address = "0x00000000000000000000000000000000000000d0";
const CFG = { defaultTickSize: "0.01", minOrderSize: "1", tickSizes: {}, minOrderSizes: {} };
const BANDS = { name: "bands", params: { bands: [{ margin: "0.03", size: "10" }] } };

interface Seen {
  readonly atMs: number;
  readonly path: string;
  readonly allowed: boolean;
}

/** The order-reads bucket (GET /api/orders/open, /history, /{id}, /{id}/fills, /fees-summary). */
function isOrderRead(method: string, path: string): boolean {
  return rateLimitsFor(method, path).some((a) => a.rule.bucket === "order-reads");
}

/** One engine over the mock, its order-read verdicts recorded, and 80 foreign fills to backfill. */
interface Rig {
  readonly h: MockHarness;
  readonly engine: TradingEngine;
  readonly events: EngineEvent[];
  readonly seen: Seen[];
  /** Settles `p`, moving the SimClock to each timer due within `maxJumpMs` meanwhile. */
  pump<T>(p: Promise<T>, maxJumpMs?: number): Promise<T>;
}

/**
 * The reconciler's order reads against the mock exchange on 127.0.0.1, whose fixed-window limiter
 * enforces the spec's table (order reads: 600 per 60 s per wallet, scaled by rateLimitPerMin). The
 * mock and the engine share one SimClock, driven by `pump`: it moves the clock to the next timer
 * whenever the run waits on one (the rate budget's pacing), so a minute of pacing takes milliseconds.
 * The HTTP client runs on the wall clock with retries off, so a 429 is seen as it comes.
 */
async function startRig(session: string): Promise<Rig> {
  const events: EngineEvent[] = [];
  const seen: Seen[] = [];
  const h = await MockHarness.start(rateLimitedScenario(RATE_LIMIT_PER_MIN));

  // At most a window per jump, so the jumps are the budget's waits (the engine's other timers are an
  // hour or more away). The start needs no jump: its status read's 5 s deadline must not pass while
  // it is in flight.
  const pump = <T>(p: Promise<T>, maxJumpMs = 61_000): Promise<T> => pumpClock(h, p, maxJumpMs);

  const limiter = h.ctx.limiter;
  const check = limiter.check.bind(limiter);
  limiter.check = (method, path, who): RateVerdict => {
    const v = check(method, path, who);
    if (isOrderRead(method, path)) seen.push({ atMs: h.clock.now(), path, allowed: v.allowed });
    return v;
  };
  const client = h.client();
  const open = (await client.markets.list()).filter((m) => m.status === "OPEN");
  const markets = tokenMarkets(open, CFG, [open[0]?.slug ?? ""]);
  const engine = createEngine({
    clock: h.clock,
    exchange: new HttpExchange(client),
    sign: intentSigner(h.builder(WALLET.mm), markets),
    markets,
    strategyFor: () => parseStrategyConfig(BANDS),
    risk: new RiskGuard(parseRiskConfig({})),
    logger: silentLogger(),
    // The pump jumps to any timer within a window: the open-market sweep (engine.marketRecheckMs,
    // a minute by default) is put an hour away with the periodic reconcile, or it would run the clock on.
    options: {
      session,
      rateLimitPerMin: RATE_LIMIT_PER_MIN,
      reconcileIntervalMs: 3_600_000,
      marketRecheckMs: 3_600_000,
    },
    listener: (e) => events.push(e),
  });
  await pump(engine.start(), 0);

  // Fills of orders the engine does not know: each trade's order is read to map it to a token.
  const m = markets[0];
  if (m === undefined) throw new Error("no market");
  h.clock.advanceBy(1_000);
  const { venue } = h.ctx;
  for (let i = 0; i < FOREIGN_ORDERS; i++) {
    const input = { wallet: WALLET.mm, marketId: m.marketId, outcome: m.outcome, side: "buy" } as const;
    venue.place({ ...input, price: toWei("0.10", "p"), quantity: toWei("1", "q") });
  }
  venue.credit(TAKER, USDC, toWei("1000", "usdc"));
  venue.credit(TAKER, m.tokenId, toWei("1000", "shares"));
  const sell = { wallet: TAKER, marketId: m.marketId, outcome: m.outcome, side: "sell" } as const;
  venue.place({
    ...sell,
    price: toWei("0.10", "p"),
    quantity: toWei(String(FOREIGN_ORDERS), "q"),
    timeInForce: "ioc",
  });
  h.clock.advanceBy(10_000); // settled, fees set
  return { h, engine, events, seen, pump };
}

async function stopRig(rig: Rig | undefined): Promise<void> {
  if (rig === undefined) return;
  await rig.pump(rig.engine.stop("test over", 5_000));
  await rig.h.close();
}

/** The last reconcile's summary, asserted to have backfilled every foreign fill without failing. */
function expectAllBackfilled(rig: Rig): void {
  expect(rig.events.filter((e) => e.type === "reconcile_failed")).toEqual([]);
  const last = rig.events.filter((e) => e.type === "reconcile").at(-1);
  expect(last?.type === "reconcile" && last.summary).toMatchObject({
    reason: "manual",
    backfilled: FOREIGN_ORDERS,
  });
}

describe("engine reconcile: order reads paced by the rate budget (mock exchange, real HTTP)", () => {
  let rig: Rig;
  beforeAll(async () => {
    rig = await startRig("reads1");
  });
  afterAll(() => stopRig(rig));

  it(`a reconcile that reads ${FOREIGN_ORDERS} orders on a budget of ${ORDER_READS_PER_MIN} a minute draws no 429`, async () => {
    const { h, seen } = rig;
    const from = seen.length;
    const startedAt = h.clock.now();
    await rig.pump(rig.engine.reconcileNow());
    const reads = seen.slice(from);
    expect(reads.filter((r) => !r.allowed)).toEqual([]);
    expect(reads.length).toBeGreaterThan(ORDER_READS_PER_MIN);
    expectAllBackfilled(rig);
    // Paced, not stalled: past the first window's 60 reads it waits for the tokens to come back,
    // about one window, not the client's Retry-After for each.
    expect(h.clock.now() - startedAt).toBeLessThan(3 * 60_000);
  });
});

describe("engine reconcile: order reads when another process spends the wallet's order-read limit", () => {
  let rig: Rig;
  beforeAll(async () => {
    rig = await startRig("reads2");
  });
  afterAll(() => stopRig(rig));

  it("the answers' X-RateLimit-* headers charge the other process's reads: the reconcile waits for the window, no 429", async () => {
    const { h, seen } = rig;
    // Another process on the same wallet (same key) reads its orders 55 times in the current window:
    // 5 of the wallet's 60 are left, while our budget still holds its burst of 10.
    const other = h.client();
    for (let i = 0; i < FOREIGN_READS; i++) await other.orders.open();
    const windowEnd = h.clock.now() - (h.clock.now() % 60_000) + 60_000;
    const from = seen.length;
    await rig.pump(rig.engine.reconcileNow());
    const reads = seen.slice(from);
    expect(reads.filter((r) => !r.allowed)).toEqual([]);
    expectAllBackfilled(rig);
    // Within the other process's window only what it left was spent; the rest waited for the reset.
    const early = reads.filter((r) => r.atMs < windowEnd);
    expect(early.length).toBeGreaterThan(0);
    expect(early.length).toBeLessThanOrEqual(ORDER_READS_PER_MIN - FOREIGN_READS);
  });
});
