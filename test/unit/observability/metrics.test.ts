import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { createMetrics } from "../../../src/observability/metrics.js";
import { marketDecision, walletDecision } from "../../../src/risk/decision.js";
import { CATALOGUE } from "./catalogue.js";
import { labelNamesOf, parseExposition, sumOf } from "./exposition.js";
import { drivenMetrics, T0, TOKENS } from "./fixture.js";

const PROMTOOL = "/usr/bin/promtool";

async function scrape(registry: Registry) {
  const text = await registry.metrics();
  return { text, families: parseExposition(text) };
}

describe("createMetrics: families", () => {
  it("exports every catalogued family with its type and labels, and nothing uncatalogued", async () => {
    const { registry, metrics } = drivenMetrics();
    const { families } = await scrape(registry);
    for (const [name, [type, labels]] of Object.entries(CATALOGUE)) {
      const f = families.get(name);
      expect(f, name).toBeDefined();
      expect(f?.type, name).toBe(type);
      expect(f?.samples.length, `${name} has samples`).toBeGreaterThan(0);
      expect(labelNamesOf(f as NonNullable<typeof f>), name).toEqual(labels);
      expect(f?.help.length, `${name} has help`).toBeGreaterThan(10);
    }
    const ours = [...families.keys()].filter((n) => n.startsWith("mm_"));
    expect(ours.filter((n) => !(n in CATALOGUE))).toEqual([]);
    metrics.close();
  });

  it("uses only the injected registry, and registers the process defaults unless told not to", async () => {
    const registry = new Registry();
    const m = createMetrics({ registry });
    const { families } = await scrape(registry);
    expect(families.get("process_cpu_seconds_total")?.type).toBe("counter");
    expect(families.get("nodejs_eventloop_lag_seconds")?.type).toBe("gauge");
    // prom-client's `_total` gauges are dropped (promtool rejects them); the by-type gauges stay.
    expect(families.has("nodejs_active_handles_total")).toBe(false);
    expect(families.has("nodejs_active_handles")).toBe(true);
    const { register } = await import("prom-client");
    expect(register.getMetricsAsArray().filter((x) => x.name.startsWith("mm_"))).toEqual([]);
    // A second set of metrics on its own registry does not collide with the first.
    const other = createMetrics({ registry: new Registry(), defaultMetrics: false });
    m.close();
    other.close();
  });

  it.skipIf(!existsSync(PROMTOOL))(
    "passes promtool's linter (when /usr/bin/promtool is installed)",
    async () => {
      const { registry, metrics } = drivenMetrics({ defaultMetrics: true });
      const { text } = await scrape(registry);
      const out = execFileSync(PROMTOOL, ["check", "metrics"], { input: text, encoding: "utf8" });
      expect(out.trim()).toBe("");
      metrics.close();
    },
  );
});

describe("createMetrics: values", () => {
  it("reads book states, ages, spreads and the tracker's counters", async () => {
    const { registry, metrics } = drivenMetrics();
    const { families: f } = await scrape(registry);
    const arg = { market: "arg-win", outcome: "YES" };
    expect(sumOf(f, "mm_book_state", { ...arg, state: "resyncing" })).toBe(1);
    expect(sumOf(f, "mm_book_state", { ...arg, state: "synced" })).toBe(0);
    expect(sumOf(f, "mm_book_gaps_total", arg)).toBe(1);
    expect(sumOf(f, "mm_book_resyncs_total", { ...arg, reason: "gap" })).toBe(1);
    expect(sumOf(f, "mm_book_age_seconds", arg)).toBe(5);
    expect(sumOf(f, "mm_book_age_seconds", { market: "bra-win", outcome: "YES" })).toBe(0);
    expect(sumOf(f, "mm_book_spread", arg)).toBeCloseTo(0.02, 9);
    expect(sumOf(f, "mm_book_mid", { market: "bra-win", outcome: "YES" })).toBeCloseTo(0.33, 9);
    expect(sumOf(f, "mm_book_quotable", { market: "bra-win", outcome: "YES" })).toBe(1);
    expect(sumOf(f, "mm_book_frames_total", { kind: "snapshot" })).toBe(3);
    expect(sumOf(f, "mm_book_frames_total", { kind: "delta" })).toBe(1);
    expect(sumOf(f, "mm_book_snapshot_requests_total")).toBe(1);
    expect(sumOf(f, "mm_book_updates_total", { market: "bra-win", outcome: "YES" })).toBe(3); // 2 applied + the test's tick
    metrics.close();
  });

  it("drops the book series of a retired token (a settled market's): the shares count watched books", async () => {
    const { registry, metrics, tracker } = drivenMetrics();
    const bra = { market: "bra-win", outcome: "YES" };
    expect(sumOf((await scrape(registry)).families, "mm_book_quotable", bra)).toBe(1);
    tracker.retire("2001");
    tracker.retire("2002"); // the market settled: both its books
    const { families: f } = await scrape(registry);
    const series = (name: string) => f.get(name)?.samples.filter((x) => x.labels.market === "bra-win") ?? [];
    expect(series("mm_book_quotable")).toEqual([]);
    expect(series("mm_book_state")).toEqual([]);
    expect(sumOf(f, "mm_book_state", { market: "arg-win", outcome: "YES", state: "resyncing" })).toBe(1);
    metrics.close();
  });

  it("shows a token whose book subscription was refused for good in mm_book_refused until tracked again or retired", async () => {
    const { registry, metrics, tracker } = drivenMetrics();
    const bra = { market: "bra-win", outcome: "YES" };
    const gauge = async (l: Record<string, string>) =>
      sumOf((await scrape(registry)).families, "mm_book_refused", l);
    expect(await gauge(bra)).toBe(0); // a series per registered token, at 0
    tracker.refuse("2001");
    tracker.refuse("9999"); // never registered: counted under market=other
    let f = (await scrape(registry)).families;
    expect(sumOf(f, "mm_book_refused", bra)).toBe(1);
    expect(sumOf(f, "mm_book_refused", { market: "other", outcome: "other" })).toBe(1);
    // Untracked: its book state is 0 everywhere, which is why the state gauges cannot tell.
    for (const state of ["synced", "resyncing", "stale"])
      expect(sumOf(f, "mm_book_state", { ...bra, state })).toBe(0);
    tracker.track("2001"); // subscribed again
    tracker.untrack("9999"); // unsubscribed: not wanted
    f = (await scrape(registry)).families;
    expect(sumOf(f, "mm_book_refused", bra)).toBe(0);
    expect(sumOf(f, "mm_book_refused", { market: "other", outcome: "other" })).toBe(0);
    tracker.refuse("2001");
    expect(await gauge(bra)).toBe(1);
    tracker.retire("2001"); // its market settled: no series at all
    f = (await scrape(registry)).families;
    expect(
      f
        .get("mm_book_refused")
        ?.samples.filter((x) => x.labels.market === "bra-win" && x.labels.outcome === "YES"),
    ).toEqual([]);
    metrics.close();
  });

  it("turns component counters into counters by their increase, scrape after scrape", async () => {
    const { registry, metrics, gateway } = drivenMetrics();
    let f = (await scrape(registry)).families;
    expect(sumOf(f, "mm_ws_frames_total", { gateway: "market", type: "book_delta" })).toBe(5);
    expect(sumOf(f, "mm_ws_connections", { gateway: "market" })).toBe(1);
    expect(sumOf(f, "mm_ws_reconnects_total", { gateway: "market" })).toBe(1);
    gateway.counters.framesByType.book_delta = 8;
    gateway.counters.connectionsOpen = 0;
    f = (await scrape(registry)).families;
    expect(sumOf(f, "mm_ws_frames_total", { gateway: "market", type: "book_delta" })).toBe(8);
    expect(sumOf(f, "mm_ws_frames_malformed_total", { gateway: "market", reason: "not_json" })).toBe(1);
    expect(sumOf(f, "mm_ws_connections", { gateway: "market" })).toBe(0);
    gateway.counters.subscriptionRefusals["token_book:subscription_cap_exceeded"] = 2;
    f = (await scrape(registry)).families;
    const refused = { gateway: "market", reason: "token_book:subscription_cap_exceeded" };
    expect(sumOf(f, "mm_ws_subscription_refusals_total", refused)).toBe(2);
    // A dropped subscription repaired (sync.ts audit): the gateway's counter, exported by channel.
    const repaired = { gateway: "market", channel: "token_book" };
    expect(sumOf(f, "mm_ws_subscriptions_repaired_total", repaired)).toBe(1);
    gateway.counters.subscriptionsLost.token_book = 3;
    f = (await scrape(registry)).families;
    expect(sumOf(f, "mm_ws_subscriptions_repaired_total", repaired)).toBe(3);
    // The periodic checks paused (a wrong list: periodic-audit.ts): a gauge, not silent.
    expect(sumOf(f, "mm_ws_subscription_checks_active", { gateway: "market" })).toBe(1);
    gateway.counters.subscriptionChecksActive = 0;
    f = (await scrape(registry)).families;
    expect(sumOf(f, "mm_ws_subscription_checks_active", { gateway: "market" })).toBe(0);
    metrics.close();
  });

  it("counts orders, queue activity, latency and rate budgets", async () => {
    const { registry, metrics } = drivenMetrics();
    const { families: f } = await scrape(registry);
    expect(sumOf(f, "mm_orders_placed_total", { market: "bra-win" })).toBe(1);
    expect(sumOf(f, "mm_orders_placed_total", { market: "other" })).toBe(1);
    expect(sumOf(f, "mm_orders_rejected_total", { code: "insufficient_funds" })).toBe(1);
    expect(sumOf(f, "mm_orders_ambiguous_total", { op: "place" })).toBe(1);
    expect(sumOf(f, "mm_orders_ambiguous_total", { op: "cancel" })).toBe(1);
    expect(sumOf(f, "mm_order_cancel_alls_total", { scope: "wallet", result: "done" })).toBe(1);
    expect(sumOf(f, "mm_orders_dropped_total", { reason: "shed" })).toBe(1);
    expect(sumOf(f, "mm_orders_open", { market: "arg-win" })).toBe(1);
    expect(sumOf(f, "mm_orders_open", { market: "other" })).toBe(1);
    expect(sumOf(f, "mm_orders_unknown")).toBe(1);
    expect(sumOf(f, "mm_orders_in_flight")).toBe(1);
    expect(sumOf(f, "mm_queue_depth", { lane: "place" })).toBe(3);
    expect(sumOf(f, "mm_queue_wait_seconds_sum", { op: "place" })).toBeCloseTo(0.12, 9);
    expect(sumOf(f, "mm_queue_rate_limited_total", { op: "place" })).toBe(1);
    expect(sumOf(f, "mm_queue_cancel_all_substitutions_total")).toBe(4);
    expect(sumOf(f, "mm_queue_foreign_tokens_total", { op: "cancel" })).toBe(2);
    expect(sumOf(f, "mm_queue_bucket_remaining", { op: "place", scope: "wallet" })).toBe(50);
    expect(sumOf(f, "mm_exchange_rate_limit_remaining", { endpoint: "POST /api/orders/place" })).toBe(42);
    expect(sumOf(f, "mm_exchange_clock_offset_seconds")).toBe(2.5);
    expect(sumOf(f, "mm_tick_to_order_seconds_count")).toBe(1);
    expect(sumOf(f, "mm_tick_to_order_seconds_sum")).toBeCloseTo(0.003, 9);
    expect(sumOf(f, "mm_http_request_duration_seconds_count", { outcome: "accepted" })).toBe(1);
    metrics.close();
  });

  it("attributes fills to maker or taker, counts the fees booked and keeps per-market PnL", async () => {
    const { registry, metrics, clock } = drivenMetrics();
    let f = (await scrape(registry)).families;
    expect(sumOf(f, "mm_fills_total", { market: "bra-win", side: "buy", role: "taker" })).toBe(1);
    expect(sumOf(f, "mm_fills_total", { market: "bra-win", side: "sell", role: "maker" })).toBe(1);
    expect(sumOf(f, "mm_fills_total", { market: "other", role: "unknown" })).toBe(1);
    expect(sumOf(f, "mm_fill_volume_shares_total", { market: "bra-win", role: "taker" })).toBe(10);
    expect(sumOf(f, "mm_fill_notional_usdc_total", { market: "bra-win", role: "maker" })).toBeCloseTo(
      1.32,
      9,
    );
    // The maker sell's settled fee (0.002 USDC) counts; the taker buy's fee has not settled: nothing
    // is booked for it yet, whatever the 200 bps formula would estimate (0.0126 USDC).
    expect(sumOf(f, "mm_fill_fees_usdc_total", { market: "bra-win", role: "maker" })).toBeCloseTo(0.002, 12);
    expect(sumOf(f, "mm_fill_fees_usdc_total", { market: "bra-win", role: "taker" })).toBe(0);
    // Bought 10 at 0.30, sold 4 at 0.33: realised 0.12; 6 left marked at the 0.33 mid: +0.18.
    expect(sumOf(f, "mm_pnl_realised_usdc", { market: "bra-win" })).toBeCloseTo(0.12, 9);
    expect(sumOf(f, "mm_pnl_unrealised_usdc", { market: "bra-win" })).toBeCloseTo(0.18, 9);
    // The fees in the engine's accounts (what its total subtracts), whatever booked them.
    expect(sumOf(f, "mm_pnl_fees_usdc", { market: "bra-win" })).toBeCloseTo(0.002, 12);
    expect(sumOf(f, "mm_position_shares", { market: "bra-win", outcome: "YES" })).toBe(6);
    expect(sumOf(f, "mm_position_shares", { market: "bra-win", outcome: "NO" })).toBe(5); // drift corrected
    expect(sumOf(f, "mm_pnl_total_usdc")).toBe(-1.5);
    expect(sumOf(f, "mm_risk_kill_switch")).toBe(1);
    expect(sumOf(f, "mm_risk_drawdown_usdc")).toBe(1.5);
    clock.advanceBy(1_000);
    f = (await scrape(registry)).families;
    // 1 s later the mids have not moved: the buy at 0.30 is +0.03 against 0.33, the sell at 0.33 is 0.
    expect(sumOf(f, "mm_fill_markout_usdc_count", { market: "bra-win", horizon: "1s" })).toBe(2);
    expect(sumOf(f, "mm_fill_markout_usdc_sum", { market: "bra-win", horizon: "1s" })).toBeCloseTo(0.03, 9);
    // f9 (market "other") was backfilled 5 s after its tsMs: its markouts are timed from the fill, so
    // its 1 s horizon was already past at receipt and counts as missing instead of a 6 s mid read
    // under the 1 s label; its 10 s horizon is read at tsMs + 10 s.
    expect(sumOf(f, "mm_fill_markout_usdc_count", { market: "other", horizon: "1s" })).toBe(0);
    expect(sumOf(f, "mm_fill_markouts_missing_total", { horizon: "1s" })).toBe(1);
    clock.advanceTo(T0 + 10_000);
    f = (await scrape(registry)).families;
    expect(sumOf(f, "mm_fill_markout_usdc_count", { market: "other", horizon: "10s" })).toBe(1);
    expect(sumOf(f, "mm_fill_markout_usdc_count", { market: "bra-win", horizon: "10s" })).toBe(0); // stream: at receipt + 10 s
    metrics.close();
  });

  it("counts risk decisions, wallet halts and reconciles", async () => {
    const { registry, metrics } = drivenMetrics();
    const { families: f } = await scrape(registry);
    expect(sumOf(f, "mm_risk_decisions_total", { reason: "book_stale", scope: "token" })).toBe(1);
    expect(sumOf(f, "mm_risk_halts_total", { reason: "error_rate_halt", scope: "wallet" })).toBe(1);
    expect(sumOf(f, "mm_risk_halts_total", { reason: "book_stale" })).toBe(0);
    expect(sumOf(f, "mm_reconcile_runs_total", { reason: "periodic", result: "ok" })).toBe(1);
    expect(sumOf(f, "mm_reconcile_runs_total", { reason: "ambiguous", result: "failed" })).toBe(1);
    expect(sumOf(f, "mm_reconcile_orphans_total")).toBe(1);
    expect(sumOf(f, "mm_reconcile_ghosts_total")).toBe(2);
    expect(sumOf(f, "mm_reconcile_drift_corrected_total")).toBe(1);
    expect(sumOf(f, "mm_reconcile_trade_pages_capped_total")).toBe(1);
    expect(sumOf(f, "mm_reconcile_history_search_failures_total")).toBe(2);
    expect(sumOf(f, "mm_reconcile_history_search_stuck_orders")).toBe(1);
    expect(sumOf(f, "mm_reconcile_lookup_stuck_orders")).toBe(2);
    expect(sumOf(f, "mm_reconcile_position_drifts")).toBe(1);
    // Per token: 2002 (bra-win NO) had drifted at every check for 45 s; the others agree (0).
    expect(sumOf(f, "mm_reconcile_position_drift_seconds", { market: "bra-win", outcome: "NO" })).toBe(45);
    expect(sumOf(f, "mm_reconcile_position_drift_seconds", { market: "bra-win", outcome: "YES" })).toBe(0);
    expect(sumOf(f, "mm_reconcile_duration_seconds_sum")).toBeCloseTo(0.04, 9);
    metrics.close();
  });

  it("labels a market halt with the status that gated it, so an alert can leave out a market's lifecycle", async () => {
    const registry = new Registry();
    const m = createMetrics({ registry, defaultMetrics: false });
    let f = (await scrape(registry)).families;
    // At zero from the start, so increase() sees the first halt of each status.
    expect(sumOf(f, "mm_risk_halts_total", { scope: "market", status: "PAUSED" })).toBe(0);
    expect(f.get("mm_risk_halts_total")?.samples.some((s) => s.labels.status === "PAUSED")).toBe(true);
    m.onRiskDecision(
      marketDecision("market_not_open", "m1", { status: "CLOSED", closesAt: "2025-01-01T00:00:00.000Z" }),
    );
    m.onRiskDecision(marketDecision("market_not_open", "m2", { status: "RESOLVED" }));
    m.onRiskDecision(marketDecision("market_not_open", "m3", { status: "PAUSED" }));
    m.onRiskDecision(marketDecision("market_not_open", "m4", { status: "NOT_OPEN" }));
    m.onRiskDecision(marketDecision("market_not_open", "m5", { status: "HALTED_BY_ADMIN" }));
    m.onRiskDecision(walletDecision("kill_switch"));
    f = (await scrape(registry)).families;
    for (const status of ["CLOSED", "RESOLVED", "PAUSED", "NOT_OPEN", "other"]) {
      expect(
        sumOf(f, "mm_risk_halts_total", { reason: "market_not_open", scope: "market", status }),
        status,
      ).toBe(1);
    }
    // A status outside the spec's folds into `other`: the label stays bounded.
    expect(f.get("mm_risk_halts_total")?.samples.some((s) => s.labels.status === "HALTED_BY_ADMIN")).toBe(
      false,
    );
    // A wallet halt has no status.
    const wallet = f.get("mm_risk_halts_total")?.samples.filter((s) => s.labels.scope === "wallet") ?? [];
    expect(wallet.every((s) => s.labels.status === undefined)).toBe(true);
    expect(sumOf(f, "mm_risk_halts_total", { reason: "kill_switch", scope: "wallet" })).toBe(1);
    m.close();
  });
});

describe("createMetrics: label cardinality", () => {
  it("keeps the first maxMarketLabels markets and folds the rest into `other`", async () => {
    const registry = new Registry();
    const m = createMetrics({ registry, maxMarketLabels: 3, defaultMetrics: false });
    const tokens = Array.from({ length: 40 }, (_, i) => ({
      tokenId: String(10_000 + i),
      marketId: `market-${Math.floor(i / 2)}`,
      outcome: i % 2 === 0 ? "YES" : "NO",
    }));
    m.registerMarkets(tokens);
    for (const t of tokens)
      m.onBookState({ ...stateOf(t.tokenId), reason: "gap", status: "resyncing", previous: "synced" });
    const { families } = await scrape(registry);
    const markets = new Set(families.get("mm_book_gaps_total")?.samples.map((s) => s.labels.market));
    expect([...markets].sort()).toEqual(["market-0", "market-1", "market-2", "other"]);
    expect(sumOf(families, "mm_book_gaps_total", { market: "other", outcome: "other" })).toBe(34);
    expect(sumOf(families, "mm_book_gaps_total")).toBe(40);
    // A token never registered is `other` too, and the cap of 0 names nothing.
    const none = createMetrics({ registry: new Registry(), maxMarketLabels: 0, defaultMetrics: false });
    none.registerMarkets(TOKENS);
    none.onBookState({ ...stateOf("1001"), reason: "gap", status: "resyncing", previous: "synced" });
    const g = parseExposition(await none.registry.metrics());
    expect(new Set(g.get("mm_book_gaps_total")?.samples.map((s) => s.labels.market))).toEqual(
      new Set(["other"]),
    );
    m.close();
    none.close();
  });

  it("caps open label sets (error codes) too", async () => {
    const registry = new Registry();
    const m = createMetrics({ registry, defaultMetrics: false });
    for (let i = 0; i < 80; i++) {
      m.listener({
        type: "place_outcome",
        atMs: 0,
        intent: {
          kind: "place",
          tokenId: "1",
          marketId: "m",
          clientOrderId: `c${i}`,
          quote: { side: "buy", level: 0, priceMicro: 1, sizeMicro: 1n },
          urgencyTicks: 0,
        },
        outcome: "rejected",
        code: `weird_code_${i}`,
        latencyMs: 1,
      });
    }
    const f = parseExposition(await registry.metrics());
    expect(f.get("mm_orders_rejected_total")?.samples).toHaveLength(51);
    expect(sumOf(f, "mm_orders_rejected_total", { code: "other" })).toBe(30);
    m.close();
  });
});

function stateOf(tokenId: string) {
  return { tokenId, crossed: false, quotable: false, since: 0, lastSeq: 1, lastUpdateTs: 0 };
}
