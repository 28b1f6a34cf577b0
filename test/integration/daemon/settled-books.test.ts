import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { startDaemon } from "../../../src/app/daemon.js";
import type { FeedTuning } from "../../../src/app/feeds.js";
import type { BookStateEvent } from "../../../src/book/book-state.js";
import { LiveClock } from "../../../src/core/live-clock.js";
import { createMetrics, type Metrics } from "../../../src/observability/metrics.js";
import {
  daemonConfig,
  daemonSlots,
  market,
  memoryLogger,
  SCENARIO,
  seedMarket,
  startMock,
  waitFor,
} from "./support.js";

const ARG = market("arg-vs-fra-final-arg-win");
const FRA = market("arg-vs-fra-final-fra-win");
const ARG_TOKENS = [ARG.yesTokenId, ARG.noTokenId];
const FRA_TOKENS = [FRA.yesTokenId, FRA.noTokenId].sort();

/** Books that tick every 100 ms, judged silent after max(5 × their interval, 600 ms) (as the fault suite). */
const TICKING = { ...SCENARIO, timing: { ...SCENARIO.timing, bookUpdateIntervalMs: 100 } };
const TUNING: FeedTuning = { tracker: { stall: { floorMs: 600, k: 5, minSamples: 5, checkEveryMs: 50 } } };

const slots = daemonSlots();

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** mm_book_state samples of `slug` in a state MmBookStale counts (stale, resyncing) that are not 0. */
async function staleSeries(metrics: Metrics, slug: string): Promise<string[]> {
  const text = await metrics.registry.getSingleMetricAsString("mm_book_state");
  return text
    .split("\n")
    .filter(
      (l) => l.includes(`market="${slug}"`) && /state="(stale|resyncing)"/.test(l) && !l.endsWith(" 0"),
    );
}

/**
 * A resolved market's book is sent no more by a real exchange (here: its feed silenced right after
 * the resolution). Its books used to stay under the stall detector: judged stale, resynced with
 * snapshot requests retried for ever, shown stale in mm_book_state (MmBookStale fired) and logged.
 * Now the settlement retires them: unsubscribed and untracked, while the other market's books are
 * still watched (a silent one is still judged stale).
 */
describe("a settled market's books (daemon against the mock)", () => {
  it("are no longer watched after a resolution; the other market's still are", async () => {
    const m = await startMock(TICKING);
    slots.mock = m;
    seedMarket(m, ARG, "0.50", "0.60");
    seedMarket(m, FRA, "0.30", "0.40");
    const metrics = createMetrics({
      registry: new Registry(),
      clock: new LiveClock(),
      defaultMetrics: false,
    });
    const { logger, sink } = memoryLogger("debug");
    const argFrames: string[] = [];
    const daemon = await startDaemon(daemonConfig(m, [ARG.slug, FRA.slug]), {
      logger,
      metrics,
      feedTuning: TUNING,
      onMarketFrame: (f) => {
        if (f.channel === "token_book" && ARG_TOKENS.includes(String(f.id))) argFrames.push(String(f.type));
      },
    });
    slots.daemon = daemon;
    const tracker = daemon.feeds.market.tracker;
    await waitFor(() => tracker.counters.updates >= 40, 5_000, "the books' own rate learnt");
    const states: BookStateEvent[] = [];
    tracker.onState((e) => states.push(e));
    const logsFrom = sink.records().length;

    m.admin.resolveMarket(ARG.id, "YES");
    for (const t of ARG_TOKENS) m.admin.silenceFeed(t, true);
    m.admin.silenceFeed(FRA.yesTokenId, true); // a live book falling silent: still judged
    await waitFor(
      () => tracker.state(FRA.yesTokenId)?.reason === "book_silent",
      4_000,
      "FRA YES judged stale",
    );
    await pause(1_500); // well past ARG's own silence limit (600 ms)

    expect(states.filter((e) => ARG_TOKENS.includes(e.tokenId))).toEqual([]);
    expect(tracker.tokens().sort()).toEqual(FRA_TOKENS);
    expect(daemon.feeds.market.client.idsOn(0, "token_book").sort()).toEqual(FRA_TOKENS);
    expect(await staleSeries(metrics, ARG.slug)).toEqual([]);
    expect(await staleSeries(metrics, FRA.slug)).not.toEqual([]);
    const since = sink.records().slice(logsFrom);
    const argLines = since.filter(
      (r) =>
        ARG_TOKENS.includes(String(r.tokenId)) || JSON.stringify(r.tokens ?? []).includes(ARG.yesTokenId),
    );
    expect(argLines.filter((r) => /stale|resync|snapshot/.test(String(r.msg))).map((r) => r.msg)).toEqual([]);
    expect(since.some((r) => String(r.msg).startsWith("market settled: its 2 book(s)"))).toBe(true);

    // The exchange's side: unsubscribed, so the periodic book_update no longer reaches the bot.
    argFrames.length = 0;
    for (const t of ARG_TOKENS) m.admin.silenceFeed(t, false);
    await pause(500);
    expect(argFrames).toEqual([]);
  });

  it("are never subscribed when the market is listed settled at start", async () => {
    const scenario = {
      ...SCENARIO,
      markets: SCENARIO.markets.map((x) => (x.slug === ARG.slug ? { ...x, status: "RESOLVED" as const } : x)),
    };
    const m = await startMock(scenario);
    slots.mock = m;
    seedMarket(m, FRA, "0.30", "0.40");
    const daemon = await startDaemon(daemonConfig(m, [ARG.slug, FRA.slug], {}, scenario), {
      logger: memoryLogger("warn").logger,
    });
    slots.daemon = daemon;
    await waitFor(
      () => FRA_TOKENS.every((t) => daemon.feeds.market.tracker.state(t)?.status === "synced"),
      3_000,
      "FRA's books synced",
    );
    expect(daemon.feeds.market.tracker.tokens().sort()).toEqual(FRA_TOKENS);
    expect(daemon.feeds.market.client.idsOn(0, "token_book").sort()).toEqual(FRA_TOKENS);
    // Retired, as a market settling mid-run: no book series for the dashboards to count.
    expect(ARG_TOKENS.every((t) => daemon.feeds.market.tracker.retired(t))).toBe(true);
  });
});
