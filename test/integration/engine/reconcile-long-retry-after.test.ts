import { afterEach, describe, expect, it } from "vitest";
import { createEngine, type TradingEngine } from "../../../src/engine/engine.js";
import type { EngineEvent } from "../../../src/engine/engine-events.js";
import { HttpExchange } from "../../../src/engine/http-exchange.js";
import { intentSigner } from "../../../src/engine/intent-signer.js";
import { tokenMarkets } from "../../../src/engine/markets.js";
import type { RateVerdict } from "../../../src/mock/rate-limiter.js";
import { createLogger } from "../../../src/observability/logger.js";
import { parseRiskConfig } from "../../../src/risk/config.js";
import { RiskGuard } from "../../../src/risk/guard.js";
import { parseStrategyConfig } from "../../../strategies/registry.js";
import { collectingStream } from "../../support/collecting-stream.js";
import { MockHarness, WALLET } from "../mock/http/harness.js";
import { pumpClockAt as pump } from "./pump-clock.js";

/*
 * The engine's reconcile against the mock exchange on 127.0.0.1 (one SimClock) when an order read is
 * answered 429 with a Retry-After far beyond any rate window (300 s): the order reads are held for
 * the cap (60 s), not five minutes, with one warning; and the stop does not wait on the hold.
 */

const CFG = { defaultTickSize: "0.01", minOrderSize: "1", tickSizes: {}, minOrderSizes: {} };
const BANDS = { name: "bands", params: { bands: [{ margin: "0.03", size: "10" }] } };

let h: MockHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function startEngine(harness: MockHarness) {
  const events: EngineEvent[] = [];
  const sink = collectingStream();
  const client = harness.client();
  const open = (await client.markets.list()).filter((m) => m.status === "OPEN");
  const markets = tokenMarkets(open, CFG, [open[0]?.slug ?? ""]);
  const engine: TradingEngine = createEngine({
    clock: harness.clock,
    exchange: new HttpExchange(client),
    sign: intentSigner(harness.builder(WALLET.mm), markets),
    markets,
    strategyFor: () => parseStrategyConfig(BANDS),
    risk: new RiskGuard(parseRiskConfig({})),
    logger: createLogger({ level: "warn", pretty: false, destination: sink }),
    // The pump jumps to any timer within a window: the open-market sweep (engine.marketRecheckMs,
    // a minute by default) is put an hour away with the periodic reconcile, or it would run the clock on.
    options: {
      session: "longretry",
      rateLimitPerMin: 600,
      reconcileIntervalMs: 3_600_000,
      marketRecheckMs: 3_600_000,
    },
    listener: (e) => events.push(e),
  });
  await pump(harness, engine.start(), 0);
  const holds = () => sink.records().filter((r) => String(r.msg).includes("Retry-After"));
  return { engine, events, holds };
}

/**
 * The mock's rate limiter refuses the next order read (GET /api/orders/*) as a server whose window
 * lasts five minutes would: 429, Retry-After and X-RateLimit-Reset 300, remaining 0. Only that
 * request: placements and cancels (which the quoting engine may send meanwhile) pass as before.
 */
function longRetryAfterNext(harness: MockHarness): void {
  const limiter = harness.ctx.limiter;
  const check = limiter.check.bind(limiter);
  let armed = true;
  limiter.check = (method, path, who): RateVerdict => {
    const verdict = check(method, path, who);
    if (!armed || method !== "GET" || !path.startsWith("/api/orders/")) return verdict;
    armed = false;
    return { allowed: false, limit: verdict.limit ?? 600, remaining: 0, resetSeconds: 300 };
  };
}

describe("engine reconcile: an order read answered 429 with Retry-After: 300", () => {
  it("the next reconcile's reads wait 60 s, not 5 minutes, and the hold is logged once at warn", async () => {
    h = await MockHarness.start();
    const { engine, events, holds } = await startEngine(h);
    longRetryAfterNext(h);
    await pump(
      h,
      engine.reconcileNow().catch(() => undefined),
      0,
    );
    expect(events.filter((e) => e.type === "reconcile_failed")).toHaveLength(1);
    const heldAt = h.clock.now();
    // Timers up to 6 minutes away may be jumped to: the run ends when the hold does.
    const next = await pump(h, engine.reconcileNow(), 360_000);
    expect(events.filter((e) => e.type === "reconcile_failed")).toHaveLength(1);
    // The cap; the answer's X-RateLimit-Reset (300 s, remaining 0) charges the window + 50 ms margin;
    // after the hold the run's reads go one per 100 ms (the order_reads rate), not all at once.
    expect(next.at - heldAt).toBeGreaterThanOrEqual(60_000);
    expect(next.at - heldAt).toBeLessThanOrEqual(61_000);
    expect(holds()).toHaveLength(1);
    expect(holds()[0]).toMatchObject({ level: 40, op: "order_reads", retryAfterMs: 300_000, heldMs: 60_000 });
    await pump(h, engine.stop("test over", 5_000), 61_000);
  });

  it("a stop during the hold ends by its deadline: its open-orders read never waits out the hold", async () => {
    h = await MockHarness.start();
    const { engine } = await startEngine(h);
    longRetryAfterNext(h);
    await pump(
      h,
      engine.reconcileNow().catch(() => undefined),
      0,
    );
    const stopAt = h.clock.now();
    const stopped = await pump(h, engine.stop("test over", 5_000), 61_000);
    expect(stopped.value).toEqual({ openOrders: 0, believed: true });
    expect(stopped.at - stopAt).toBeLessThanOrEqual(5_000);
  });
});
