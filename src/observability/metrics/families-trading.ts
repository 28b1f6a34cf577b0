import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import { type TokenAccount, unrealisedPico } from "../../execution/inventory-math.js";
import { MaxByLabels } from "./market-labels.js";
import { accountsOf, fromMicro, type MetricsContext, midMicroOf } from "./sources.js";

/** Price units (USDC per share): a tick is 0.01 or 0.001, so ± a few ticks either way. */
const MARKOUT_BUCKETS = [
  -0.05, -0.02, -0.01, -0.005, -0.002, -0.001, 0, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05,
];
const RECONCILE_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** Fills, PnL, markouts, risk and reconciler families (see README "Metrics"). */
export function tradingFamilies(registry: Registry, ctx: MetricsContext) {
  const registers = [registry];
  const { sources, labels } = ctx;
  // Sums of the engine's accounts per market label (several markets fold into `other`).
  const perMarket = (
    value: (tokenId: string, a: TokenAccount, markMicro: number | undefined) => bigint,
  ): Map<string, bigint> => {
    const out = new Map<string, bigint>();
    for (const m of labels.marketValues()) out.set(m, 0n);
    for (const { tokenId, account, markMicro } of accountsOf(sources)) {
      const m = labels.ofToken(tokenId).market;
      out.set(m, (out.get(m) ?? 0n) + value(tokenId, account, markMicro));
    }
    return out;
  };
  // Each token drifting at the last position check → seconds it has drifted at every check
  // (recordReconcile replaces it whole): only the drifting tokens, so it is as small as the drift.
  const driftRuns = new Map<string, number>();
  return {
    driftRuns,
    fills: new Counter({
      name: "mm_fills_total",
      help: "Fills of ours, per market, side and role (maker, taker, unknown).",
      labelNames: ["market", "side", "role"] as const,
      registers,
    }),
    volume: new Counter({
      name: "mm_fill_volume_shares_total",
      help: "Shares filled, per market and role.",
      labelNames: ["market", "role"] as const,
      registers,
    }),
    notional: new Counter({
      name: "mm_fill_notional_usdc_total",
      help: "Price times size of our fills in USDC, per market and role.",
      labelNames: ["market", "role"] as const,
      registers,
    }),
    fees: new Counter({
      name: "mm_fill_fees_usdc_total",
      help: "Fees of our fills in USDC as this process booked them once settled (a share fee at the fill price), per market and role; unknown for an earlier run's fill. Starts at 0 each process: the PnL's fees, restored ones included, are mm_pnl_fees_usdc.",
      labelNames: ["market", "role"] as const,
      registers,
    }),
    lastFill: new Gauge({
      name: "mm_fill_last_timestamp_seconds",
      help: "Unix time of the last fill of ours (the start time until the first one).",
      registers,
    }),
    markout: new Histogram({
      name: "mm_fill_markout_usdc",
      help: "Signed markout per share of each fill at a horizon (mid then minus price for a buy, price minus mid for a sell).",
      labelNames: ["market", "horizon"] as const,
      buckets: MARKOUT_BUCKETS,
      registers,
    }),
    markoutMissing: new Counter({
      name: "mm_fill_markouts_missing_total",
      help: "Markout horizons not sampled, by horizon: no two-sided book to read a mid from, or already past when a backfilled fill was heard of.",
      labelNames: ["horizon"] as const,
      registers,
    }),
    position: new Gauge({
      name: "mm_position_shares",
      help: "Position in the engine's accounts, per token: fills and corrections since start plus the position an earlier run left (restored from the journal), relative to the holdings beside it.",
      labelNames: ["market", "outcome"] as const,
      registers,
      collect() {
        this.reset();
        for (const [, l] of labels.tokens()) this.set(l, 0);
        for (const { tokenId, account } of accountsOf(sources)) {
          this.inc(labels.ofToken(tokenId), fromMicro(account.sizeMicro));
        }
      },
    }),
    realised: new Gauge({
      name: "mm_pnl_realised_usdc",
      help: "Realised PnL in the engine's accounts by average cost, before fees, per market (an earlier run's restored realised PnL included).",
      labelNames: ["market"] as const,
      registers,
      collect() {
        this.reset();
        const sums = perMarket((_t, a) => a.realisedPico);
        for (const [market, pico] of sums) this.set({ market }, fromPico(pico));
      },
    }),
    pnlFees: new Gauge({
      name: "mm_pnl_fees_usdc",
      help: "Fees in the engine's PnL, per market: those of its accounts, an earlier run's restored ones included (the part of mm_pnl_total_usdc that mm_fill_fees_usdc_total, this process's count, lacks after a restart).",
      labelNames: ["market"] as const,
      registers,
      collect() {
        this.reset();
        // The accounts' fees, as realised is the accounts' realised: a restart restores both, so
        // realised − this + unrealised adds up to the total the kill switch watches.
        const sums = perMarket((_t, a) => a.feesPico);
        for (const [market, pico] of sums) this.set({ market }, fromPico(pico));
      },
    }),
    unrealised: new Gauge({
      name: "mm_pnl_unrealised_usdc",
      help: "Unrealised PnL of the engine's positions (an earlier run's restored position included) at the engine's mark (the mid; a resolved market's payout; 0 while it has neither), per market.",
      labelNames: ["market"] as const,
      registers,
      collect() {
        this.reset();
        // The engine's own mark, so that realised − fees + unrealised adds up to the total: a
        // resolved market's tokens are marked at their payout while their book is empty.
        const sums = perMarket((t, a, markMicro) => {
          const mark = markMicro ?? midMicroOf(sources, t);
          if (mark === undefined || a.sizeMicro === 0n) return 0n;
          return unrealisedPico(a, Math.floor(mark));
        });
        for (const [market, pico] of sums) this.set({ market }, fromPico(pico));
      },
    }),
    pnlTotal: new Gauge({
      name: "mm_pnl_total_usdc",
      help: "The engine's total PnL (realised - fees + unrealised at the engine's mark: the mid, or a resolved market's payout; an earlier run's restored PnL and position included), what the kill switch watches.",
      registers,
      collect() {
        const e = sources.engine;
        if (e !== undefined) this.set(fromMicro(e.status().pnlMicro));
      },
    }),
    decisions: new Counter({
      name: "mm_risk_decisions_total",
      help: "Risk guard decisions, by reason, action (cancel, drop, clip) and scope (wallet, market, token, quote).",
      labelNames: ["reason", "action", "scope"] as const,
      registers,
    }),
    oversizeSizes: new Counter({
      name: "mm_risk_oversize_sizes_total",
      help: "Quote sizes order.maxSize (risk setting) drops outright (never quoted: oversize drop, or a maximum below the market minimum), each token and size counted once (at most 8 sizes per token).",
      labelNames: ["market"] as const,
      registers,
    }),
    strategyFailures: new Counter({
      name: "mm_strategy_failures_total",
      help: "Strategy calls that gave no quote (the token's quotes withdrawn), by strategy and reason: threw, or output_invalid (not an array of quotes). Every failure, logged or not (the log keeps the first of each message per token).",
      labelNames: ["strategy", "reason"] as const,
      registers,
    }),
    strategySlowCalls: new Counter({
      name: "mm_strategy_slow_calls_total",
      help: "Strategy calls that took longer than engine.strategySlowMs on the event loop, by strategy (their quotes stand).",
      labelNames: ["strategy"] as const,
      registers,
    }),
    halts: new Counter({
      name: "mm_risk_halts_total",
      help: "Wallet- or market-wide halts (every quote cancelled), by reason and scope; a market halt's status is the market status that gated it (CLOSED past its closesAt, NOT_OPEN for a refused placement).",
      labelNames: ["reason", "scope", "status"] as const,
      registers,
    }),
    killSwitch: new Gauge({
      name: "mm_risk_kill_switch",
      help: "1 while the drawdown kill switch is tripped (sticky until an operator resets it).",
      registers,
      collect() {
        const e = sources.engine;
        if (e !== undefined) this.set(e.status().killSwitch ? 1 : 0);
      },
    }),
    drawdown: new Gauge({
      name: "mm_risk_drawdown_usdc",
      help: "The drawdown kill switch's peak minus the PnL it last saw (a drawdown carried over from the last run included): it trips beyond risk.killSwitch.maxDrawdown.",
      registers,
      collect() {
        const e = sources.engine;
        if (e !== undefined) this.set(fromMicro(e.status().drawdownMicro));
      },
    }),
    quotingTokens: new Gauge({
      name: "mm_engine_quoting_tokens",
      help: "Tokens with quotes wanted at the last quoting step.",
      registers,
      collect() {
        const e = sources.engine;
        if (e !== undefined) this.set(e.status().quotingTokens);
      },
    }),
    reconcileRuns: new Counter({
      name: "mm_reconcile_runs_total",
      help: "REST reconciles, by trigger (startup, periodic, reconnect, ambiguous, unresolved, manual) and result (ok, failed).",
      labelNames: ["reason", "result"] as const,
      registers,
    }),
    reconcileDuration: new Histogram({
      name: "mm_reconcile_duration_seconds",
      help: "Duration of successful REST reconciles.",
      buckets: RECONCILE_BUCKETS,
      registers,
    }),
    orphans: new Counter({
      name: "mm_reconcile_orphans_total",
      help: "Open orders found on the exchange that the bot did not track (cancelled unless adopted).",
      registers,
    }),
    ghosts: new Counter({
      name: "mm_reconcile_ghosts_total",
      help: "Local orders whose state the reconciler corrected from the exchange's view (ghosts, unknown placements resolved, missed transitions).",
      registers,
    }),
    backfilled: new Counter({
      name: "mm_reconcile_backfilled_fills_total",
      help: "Fills missed by the stream and backfilled from /api/me/trades.",
      registers,
    }),
    tradePagesCapped: new Counter({
      name: "mm_reconcile_trade_pages_capped_total",
      help: "REST reconciles whose trade paging stopped at its page bound before its cut-off: the fills beyond it were not backfilled — the older ones, or the newer ones on a history served oldest first (a warning names what was searched).",
      registers,
    }),
    searchFailures: new Counter({
      name: "mm_reconcile_history_search_failures_total",
      help: "Order-history searches for unknown placements (one per cluster of sends) that failed with an error other than a refused cursor: their placements stay unknown, their levels waiting.",
      registers,
    }),
    searchStuck: new Gauge({
      name: "mm_reconcile_history_search_stuck_orders",
      help: "Unknown placements whose order-history search has failed at every try for a minute or more, as of the last reconcile: their levels wait, unquoted, until it answers (mm never gives them up on its own).",
      registers,
    }),
    lookupStuck: new Gauge({
      name: "mm_reconcile_lookup_stuck_orders",
      help: "Orders absent from the open list whose lookup (GET /api/orders/{id}) has failed at every try for a minute or more, as of the last reconcile: held live in doubt (off the book, how they ended unknown), their levels blocked and their exposure counted, until it answers.",
      registers,
    }),
    statusReadsFailing: new Gauge({
      name: "mm_market_status_reads_failing",
      help: "Market status reads that keep failing (2 failures in a row, until one answers), by watch: closed (the closed-market watch's GET /api/markets/{slug} of markets held closed or awaiting payouts), open (the open-market sweep's GET /api/markets, and /api/markets/{slug} of quoted markets the list leaves out). Each is warned of once.",
      labelNames: ["watch"] as const,
      registers,
    }),
    unresolved: new Gauge({
      name: "mm_reconcile_unresolved_orders",
      help: "Orders in doubt after the last reconcile: unknown placements still unresolved, and orders absent from the open list whose lookup failed.",
      registers,
    }),
    drifts: new Gauge({
      name: "mm_reconcile_position_drifts",
      help: "Tokens whose position disagreed with the exchange's at the last position check.",
      registers,
    }),
    driftSeconds: new Gauge({
      name: "mm_reconcile_position_drift_seconds",
      help: "Seconds the token's position has disagreed with the exchange's at every position check, as of the last check (0 when it agreed); max under market=other.",
      labelNames: ["market", "outcome"] as const,
      registers,
      collect() {
        this.reset();
        const worst = new MaxByLabels();
        for (const [, l] of labels.tokens()) worst.add(l, 0);
        for (const [tokenId, s] of driftRuns) worst.add(labels.ofToken(tokenId), s);
        worst.setOn(this);
      },
    }),
    driftCorrected: new Counter({
      name: "mm_reconcile_drift_corrected_total",
      help: "Position drifts that lasted (unchanged over consecutive reconciles and the settlement window) and were corrected to the exchange's figure.",
      registers,
    }),
    lastReconcile: new Gauge({
      name: "mm_reconcile_last_success_timestamp_seconds",
      help: "Unix time of the last successful reconcile.",
      registers,
    }),
    reconcileInterval: new Gauge({
      name: "mm_reconcile_interval_seconds",
      help: "The configured period of the periodic reconcile (reconcile.intervalMs), 0 when not known: MmReconcileStale's threshold follows it.",
      registers,
    }),
  };
}

/** Pico-USDC (10⁻¹²) to USDC, for export only. */
function fromPico(pico: bigint): number {
  return Number(pico) / 1e12;
}

/** The families tradingFamilies returns. */
export type TradingFamilies = ReturnType<typeof tradingFamilies>;
