import type { PrometheusServer, QueryAnswer } from "./prometheus-server.js";
import type { InstrumentedStack } from "./stack.js";

const positive = (a: QueryAnswer) => a.result.some((r) => Number(r.value[1]) > 0);
const some = (a: QueryAnswer) => a.result.length > 0;

/**
 * Runs the bot through the incidents the alert rules watch for, through the mock's fault injection,
 * each one awaited until Prometheus has scraped its effect:
 * 1. normal trading until fills are scraped;
 * 2. 429 rate_limited answers (MmRateLimited);
 * 3. 500s (ambiguous writes, resolved by the reconciler) then 503s (rejected placements: the
 *    error-rate halt trips, MmHighErrorRate and MmRiskHalt);
 * 4. a sequence gap on every book and a reordered frame, then every socket dropped (gaps, resyncs,
 *    reconnects);
 *    Then one token's token_book subscription dropped server-side without a word (the mock's
 *    drop-subscription fault): the stall probe or the periodic subscriptions check (10 s in this
 *    stack) finds it and subscribes it again (MmWsSubscriptionsRepaired), awaited after 6.;
 * 5. the platform frozen (a platform_frozen halt) and, while it is, 6. below; then unfrozen;
 * 6. shares credited to the wallet behind the bot's back: a position drift, corrected after two
 *    reconciles (MmReconcilerDrift), the token's drift run above 0 meanwhile (the metric of
 *    MmPositionDriftLasting, whose 15 minutes the run cannot hold). Credited while frozen: no
 *    taker trades then, so the token is quiet, and a drift is corrected only on a token with no fill
 *    in the settlement window (reconcile-positions.ts). While trading, the credited token's takers
 *    come every 2 s on average, so the 4 s quiet spell the correction needs came by chance (on a
 *    loaded box, with reconciles further apart, the likely reason it once failed its 20 s);
 * 7. one token's feed silenced for good: its book goes stale (MmBookStale); with the same socket
 *    drop, another token's token_book resubscribe refused for good (invalid_params, the mock's
 *    refuse-book fault): untracked, mm_book_refused shows it (MmBookRefused);
 * and finally waits for the first 10 s markouts.
 */
export async function incidents(stack: InstrumentedStack, prom: PrometheusServer): Promise<void> {
  const { admin } = stack;
  const until = async (what: string, expr: string, ok: (a: QueryAnswer) => boolean, ms = 15_000) => {
    const a = await prom.waitFor(expr, ok, ms);
    if (!ok(a))
      throw new Error(
        `incident not visible within ${ms} ms: ${what} (${expr} → ${JSON.stringify(a.result)})`,
      );
  };
  const drained = async () => {
    const end = Date.now() + 10_000;
    while (admin.state().faults.failNext !== null && Date.now() < end)
      await new Promise((r) => setTimeout(r, 50));
  };

  await until("fills", "sum(mm_fills_total)", positive);

  admin.failNextRequests(20, 429, undefined, 1);
  await until("429s", "sum(mm_queue_rate_limited_total)", positive);
  await drained();

  admin.failNextRequests(30, 500);
  await until("ambiguous writes", "sum(mm_orders_ambiguous_total)", positive);
  await drained();
  admin.failNextRequests(150, 503);
  await until("error-rate halt", 'sum(mm_risk_halts_total{reason="error_rate_halt"})', positive);
  await drained();

  admin.skipSeq("*");
  admin.reorder("*");
  await until("gaps", "sum(mm_book_gaps_total)", positive);
  admin.dropAllSockets();
  await until("reconnects", "sum(mm_ws_reconnects_total)", positive);
  const dropped = stack.tokens.find((t) => t.status === "OPEN");
  if (dropped === undefined) throw new Error("no open market to drop a subscription of");
  admin.dropSubscriptions([dropped.tokenId]);

  admin.freezePlatform(true);
  await until("platform frozen", 'sum(mm_risk_halts_total{reason="platform_frozen"})', positive);

  const token = stack.tokens.find((t) => t.status === "OPEN");
  if (token === undefined) throw new Error("no open market to run incidents on");
  stack.mock.context.venue.credit(stack.wallet as `0x${string}`, token.tokenId, 7_000_000n);
  // 40 s: two reconciles 4 s apart with no fill between normally take ~6 s, but on a 2-core box
  // running two test workers beside other work it once took over 20 s.
  await until("drift corrected", "sum(mm_reconcile_drift_corrected_total)", positive, 40_000);
  // The credited token disagreed at two checks running before its correction: its run
  // (mm_reconcile_position_drift_seconds, MmPositionDriftLasting's metric) passed 0 on its own labels.
  const drifted = `mm_reconcile_position_drift_seconds{market="${token.slug ?? token.marketId}", outcome="${token.outcome}"}`;
  await until("drift run", `max_over_time(${drifted}[1m]) > 0`, some, 20_000);
  await until(
    "subscription repaired",
    'sum(increase(mm_ws_subscriptions_repaired_total{channel="token_book"}[5m]))',
    positive,
    20_000,
  );
  admin.freezePlatform(false);

  // Silenced, then every socket dropped: on reconnect the token's snapshot never comes, so its
  // book stays resyncing (the stall detector's own minute-scale judgement is unit-tested).
  // The resubscribe also refuses one token of another market (the rest of the entry accepted):
  // a NO token, so each market still quotes a book and the stale one stays the silenced token.
  const refused = stack.tokens.find(
    (t) => t.status === "OPEN" && t.marketId !== token.marketId && t.outcome === "NO",
  );
  if (refused === undefined) throw new Error("no second open market to refuse a book of");
  admin.refuseBooks([refused.tokenId], "invalid_params");
  admin.silenceFeed(token.tokenId);
  admin.dropAllSockets();
  await until("stale book", 'mm_book_state{state=~"stale|resyncing"} == 1', some, 20_000);
  const market = refused.slug ?? refused.marketId;
  await until(
    "refused book",
    "mm_book_refused == 1",
    (a) =>
      a.result.length === 1 &&
      a.result[0]?.metric.market === market &&
      a.result[0]?.metric.outcome === refused.outcome,
    20_000,
  );
  // The other books resnapshot after the drop and quoting resumes (MmNoFills' probe needs it).
  await until("quoting again", "sum(mm_engine_quoting_tokens)", positive, 20_000);

  await until("10 s markouts", 'sum(mm_fill_markout_usdc_count{horizon="10s"})', positive, 20_000);
}
