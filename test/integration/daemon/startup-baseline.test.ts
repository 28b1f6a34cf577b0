import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { startDaemon } from "../../../src/app/daemon.js";
import type { Clock } from "../../../src/core/clock.js";
import { LiveClock } from "../../../src/core/live-clock.js";
import type { Address } from "../../../src/core/types.js";
import { toWei } from "../../../src/core/wei.js";
import type { EngineEvent } from "../../../src/engine/engine-events.js";
import { createMockExchange, type MockExchange } from "../../../src/mock/mock-exchange.js";
import { createMetrics } from "../../../src/observability/metrics.js";
import { OffsetClock } from "../../support/offset-clock.js";
import {
  daemonConfig,
  daemonSlots,
  market,
  memoryLogger,
  rest,
  SCENARIO,
  seedMarket,
  settledQuotes,
  WALLET,
  waitFor,
} from "./support.js";

const ARG = market("arg-vs-fra-final-arg-win");
const TAKER = SCENARIO.wallets[1]?.address.toLowerCase() as Address;
/** Bands 0.03 around the mid, 10 shares: on a 0.50 / 0.60 book, a bid at 0.52 and an ask at 0.58. */
const BANDS = JSON.stringify({
  name: "bands",
  params: { reference: "mid", bands: [{ margin: "0.03", size: "10" }] },
});
/** How far apart the bot's clock and the exchange's are in these tests. */
const SKEW_MS = 20_000;

const slots = daemonSlots();

/** A mock on `clock`, its ARG books at 0.50 / 0.60, the taker holding YES shares to sell. */
async function exchangeOn(clock: Clock): Promise<MockExchange> {
  const m = await createMockExchange({ scenario: SCENARIO, flow: false, admin: true, clock });
  slots.mock = m;
  seedMarket(m, ARG, "0.50", "0.60");
  m.context.venue.credit(TAKER, ARG.yesTokenId, toWei("100"));
  return m;
}

/**
 * The start-up baseline is the wallet's positions; every fill stamped before the instant they stand
 * for is in them, every later one must be applied, and the split is made on the exchange's clock
 * (fills carry the exchange's times). The bot's own clock is set apart from the exchange's to show it
 * plays no part: ahead, it drops fills made after the read; behind, it applies again fills the
 * positions already hold.
 */
describe("start-up baseline instant (exchange clock)", () => {
  it("bot clock ahead of the exchange: a fill on its first quotes is applied, not taken for the baseline's", async () => {
    const m = await exchangeOn(new LiveClock());
    const fills: Extract<EngineEvent, { type: "fill" }>[] = [];
    const { logger } = memoryLogger("warn");
    const d = await startDaemon(daemonConfig(m, [ARG.slug], { MM_ENGINE_STRATEGY: BANDS }), {
      logger,
      clock: new OffsetClock(SKEW_MS),
      metrics: createMetrics({ registry: new Registry(), clock: new LiveClock(), defaultMetrics: false }),
      listener: (e) => {
        if (e.type === "fill") fills.push(e);
      },
    });
    slots.daemon = d;
    await settledQuotes(m, ARG.yesTokenId, 2);
    // Seconds after the positions were read, well inside the skew: the taker sells into our bid.
    rest(m, ARG, "sell", "0.52", "10", "YES", TAKER);
    await waitFor(() => d.engine.positionOf(ARG.yesTokenId) === toWei("10"), 3_000, "the fill applied");
    expect(fills.map((f) => f.source)).toEqual(["stream"]);
  });

  it("bot clock minutes ahead (past the trade lookback): fills after the start-up reconcile are applied too", async () => {
    // The backfill's trade cut-off and inventory's compaction floor (a reconcile's start minus the
    // 120 s lookback) must be on the exchange's clock as well: on the bot's, 200 s ahead, the floor
    // lands past the exchange's present and every new fill is refused as a late duplicate.
    const m = await exchangeOn(new LiveClock());
    const { logger } = memoryLogger("warn");
    const d = await startDaemon(daemonConfig(m, [ARG.slug], { MM_ENGINE_STRATEGY: BANDS }), {
      logger,
      clock: new OffsetClock(200_000),
    });
    slots.daemon = d;
    await settledQuotes(m, ARG.yesTokenId, 2);
    rest(m, ARG, "sell", "0.52", "10", "YES", TAKER);
    await waitFor(() => d.engine.positionOf(ARG.yesTokenId) === toWei("10"), 3_000, "the fill applied");
  });

  it("bot clock behind the exchange: a fill the positions already hold is not applied again", async () => {
    const m = await exchangeOn(new OffsetClock(SKEW_MS));
    // An earlier run's bid, filled just before this run reads its positions (so they hold the 10).
    rest(m, ARG, "buy", "0.55", "10", "YES", WALLET);
    rest(m, ARG, "sell", "0.55", "10", "YES", TAKER);
    const fills: Extract<EngineEvent, { type: "fill" }>[] = [];
    const { logger } = memoryLogger("warn");
    const d = await startDaemon(daemonConfig(m, [ARG.slug], { MM_ENGINE_STRATEGY: BANDS }), {
      logger,
      listener: (e) => {
        if (e.type === "fill") fills.push(e);
      },
    });
    slots.daemon = d;
    // start() has run the start-up reconcile, whose backfill read the trade.
    expect(fills).toEqual([]);
    expect(d.engine.positionOf(ARG.yesTokenId)).toBe(0n);
  });
});

describe("position corrections on the exchange's clock", () => {
  it("bot clock behind: a correction stands at the positions' own instant, a fill just before it counts once", async () => {
    const m = await exchangeOn(new OffsetClock(SKEW_MS));
    let corrections = 0;
    let drifted = false;
    const { logger } = memoryLogger("error");
    const d = await startDaemon(
      daemonConfig(m, [ARG.slug], {
        MM_ENGINE_STRATEGY: BANDS,
        MM_RECONCILE_INTERVAL_MS: "1000",
        // What is pinned is where the correction stands, not when: no settlement window, so it comes
        // at the first consecutive identical sightings, within the wait below.
        MM_RECONCILE_DRIFT_SETTLE_MS: "0",
      }),
      {
        logger,
        listener: (e) => {
          if (e.type !== "reconcile") return;
          if (e.summary.drifts.length > 0) drifted = true;
          if (e.summary.corrections.length > 0) corrections++;
        },
      },
    );
    slots.daemon = d;
    await settledQuotes(m, ARG.yesTokenId, 2);
    m.context.venue.credit(WALLET, ARG.yesTokenId, toWei("7")); // 7 shares no fill explains
    await waitFor(() => drifted, 3_000, "the drift seen once");
    // Between the two sightings: a fill the next positions read holds, applied from the stream.
    rest(m, ARG, "sell", "0.52", "10", "YES", TAKER);
    await waitFor(() => corrections > 0, 5_000, "the correction");
    await new Promise((r) => setTimeout(r, 300));
    // 7 + 10: the correction's target already holds the fill, which must not add on top of it.
    expect(d.engine.positionOf(ARG.yesTokenId)).toBe(toWei("17"));
  });
});

describe("start-up policy adopt over HTTP: an adopted order's fills", () => {
  it("an order partly filled before the start and filled after it is `filled` from its fills alone", async () => {
    const m = await exchangeOn(new LiveClock());
    // An earlier run's bid at the price this run wants, 0.5 of its 10 filled before the start.
    const left = rest(m, ARG, "buy", "0.52", "10", "YES", WALLET);
    rest(m, ARG, "sell", "0.52", "0.5", "YES", TAKER);
    const reconciles: string[] = [];
    const { logger } = memoryLogger("warn");
    const d = await startDaemon(
      daemonConfig(m, [ARG.slug], { MM_ENGINE_STRATEGY: BANDS, MM_RECONCILE_ON_START: "adopt" }),
      {
        logger,
        metrics: createMetrics({ registry: new Registry(), clock: new LiveClock(), defaultMetrics: false }),
        listener: (e) => {
          if (e.type === "reconcile") reconciles.push(e.summary.reason);
        },
      },
    );
    slots.daemon = d;
    expect(d.engine.liveOrders().map((o) => o.orderId)).toContain(left); // adopted, kept as the bid
    rest(m, ARG, "sell", "0.52", "9.5", "YES", TAKER); // the rest of it
    await waitFor(() => d.engine.positionOf(ARG.yesTokenId) === toWei("9.5"), 3_000, "the fill");
    await waitFor(
      () => !d.engine.liveOrders().some((o) => o.orderId === left),
      1_000,
      "the adopted order filled",
    );
    await new Promise((r) => setTimeout(r, 500)); // past the reconcile debounce
    expect(reconciles).toEqual(["startup"]); // no reconcile had to find it out
  });
});
