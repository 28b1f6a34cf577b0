import { afterEach, describe, expect, it } from "vitest";
import { createEngine, type TradingEngine } from "../../../src/engine/engine.js";
import type { EngineEvent } from "../../../src/engine/engine-events.js";
import { HttpExchange } from "../../../src/engine/http-exchange.js";
import { intentSigner } from "../../../src/engine/intent-signer.js";
import { tokenMarkets } from "../../../src/engine/markets.js";
import { rateLimitsFor } from "../../../src/exchange/rate-limits.js";
import type { RateVerdict } from "../../../src/mock/rate-limiter.js";
import { parseRiskConfig } from "../../../src/risk/config.js";
import { RiskGuard } from "../../../src/risk/guard.js";
import { parseStrategyConfig } from "../../../strategies/registry.js";
import { silentLogger } from "../../support/exchange-fixtures.js";
import { MockHarness, WALLET } from "../mock/http/harness.js";
import { pumpClock as pump } from "./pump-clock.js";
import { rateLimitedScenario } from "./rate-limited-scenario.js";

/*
 * The reconciler's portfolio reads (GET /api/me/trades pages, /api/me/positions) spend the wallet's
 * me-reads bucket (1800 per 60 s × rateLimitPerMin / 600), shared with anything else reading the
 * wallet's portfolio with its key. They went out unpaced: the order reads' budget paced a reconcile's
 * order reads only, so a burst of reconciles after another process had spent most of the window drew
 * 429s (and each failed its run). Against the mock exchange's fixed-window limiter on 127.0.0.1, one
 * SimClock, the HTTP client's retries off: every 429 is seen.
 */

/** 0.1× the baseline: the wallet may read its portfolio 180 times a minute. */
const RATE_LIMIT_PER_MIN = 60;
const ME_READS_PER_MIN = 180;
/** Portfolio reads another process on the wallet spends at the start of the window: 4 are left. */
const FOREIGN_READS = 176;
/** Reconciles one after another, each at least a trade page and a positions read. */
const RUNS = 4;
const CFG = { defaultTickSize: "0.01", minOrderSize: "1", tickSizes: {}, minOrderSizes: {} };
const BANDS = { name: "bands", params: { bands: [{ margin: "0.03", size: "10" }] } };

interface Seen {
  readonly atMs: number;
  readonly allowed: boolean;
}

let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

/** The wallet's portfolio-read bucket (GET /api/me/positions, /trades, /balances, …). */
function isMeRead(method: string, path: string): boolean {
  return rateLimitsFor(method, path).some((a) => a.rule.bucket === "me-reads");
}

async function startRig(): Promise<{
  h: MockHarness;
  engine: TradingEngine;
  events: EngineEvent[];
  seen: Seen[];
}> {
  const h = await MockHarness.start(rateLimitedScenario(RATE_LIMIT_PER_MIN));
  const seen: Seen[] = [];
  const limiter = h.ctx.limiter;
  const check = limiter.check.bind(limiter);
  limiter.check = (method, path, who): RateVerdict => {
    const v = check(method, path, who);
    if (isMeRead(method, path)) seen.push({ atMs: h.clock.now(), allowed: v.allowed });
    return v;
  };
  const client = h.client();
  const open = (await client.markets.list()).filter((m) => m.status === "OPEN");
  const markets = tokenMarkets(open, CFG, [open[0]?.slug ?? ""]);
  const events: EngineEvent[] = [];
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
      session: "mereads",
      rateLimitPerMin: RATE_LIMIT_PER_MIN,
      reconcileIntervalMs: 3_600_000,
      marketRecheckMs: 3_600_000,
    },
    listener: (e) => events.push(e),
  });
  await pump(h, engine.start(), 0);
  stop = async () => {
    await pump(h, engine.stop("test over", 5_000));
    await h.close();
  };
  return { h, engine, events, seen };
}

describe("engine reconcile: portfolio reads paced by the rate budget (mock exchange, real HTTP)", () => {
  it(`${RUNS} reconciles in a row after another process spent ${FOREIGN_READS} of the wallet's ${ME_READS_PER_MIN} portfolio reads draw no 429`, async () => {
    const { h, engine, events, seen } = await startRig();
    // A fresh fixed window, then the other process (same key) reads the wallet's balances.
    h.clock.advanceTo(h.clock.now() - (h.clock.now() % 60_000) + 60_000);
    const windowEnd = h.clock.now() + 60_000;
    const other = h.client();
    for (let i = 0; i < FOREIGN_READS; i++) await other.me.balances();
    const from = seen.length;
    for (let i = 0; i < RUNS; i++) await pump(h, engine.reconcileNow());
    const ours = seen.slice(from);
    expect(ours.length).toBeGreaterThanOrEqual(2 * RUNS);
    expect(ours.filter((r) => !r.allowed)).toEqual([]);
    expect(events.filter((e) => e.type === "reconcile_failed")).toEqual([]);
    // Within the other process's window only what it left was spent; the rest waited for the reset.
    const early = ours.filter((r) => r.atMs < windowEnd);
    expect(early.length).toBeGreaterThan(0);
    expect(early.length).toBeLessThanOrEqual(ME_READS_PER_MIN - FOREIGN_READS);
  });
});
