import { describe, expect, it } from "vitest";
import { startDaemon } from "../../../src/app/daemon.js";
import type { Address } from "../../../src/core/types.js";
import { toWei } from "../../../src/core/wei.js";
import type { EngineEvent } from "../../../src/engine/engine-events.js";
import {
  daemonConfig,
  daemonSlots,
  market,
  memoryLogger,
  rest,
  SCENARIO,
  seedMarket,
  settledQuotes,
  startMock,
  waitFor,
} from "./support.js";

const ARG = market("arg-vs-fra-final-arg-win");

/**
 * Avellaneda–Stoikov with a fixed σ and horizon so that one lot of inventory moves the reservation
 * price by γσ²τ = 1 × 0.001² × 20 000 = 0.02 (two ticks), and the spread is
 * γσ²τ + (2/γ)·ln(1 + γ/k) ≈ 0.04.
 */
const AS = JSON.stringify({
  name: "avellaneda-stoikov",
  params: { gamma: 1, k: 100, orderSize: "10", sigma: 0.001, horizonSeconds: 20_000 },
});

const slots = daemonSlots();

/** A third trader (scenario wallets[1]): it takes liquidity, so no self-trade with the book's maker. */
const TAKER = SCENARIO.wallets[1]?.address.toLowerCase() as Address;

describe("fills change inventory and skew the quotes (avellaneda-stoikov)", () => {
  it("a fill of our bid makes us long one lot: both quotes move down by the skew, at an unchanged mid", async () => {
    slots.mock = await startMock();
    // The other trader's book 0.49 / 0.51 (mid 0.50); our quotes rest outside it and never move the mid.
    seedMarket(slots.mock, ARG, "0.49", "0.51");
    slots.mock.context.venue.credit(TAKER, ARG.yesTokenId, toWei("200"));
    const { logger } = memoryLogger();
    const fills: Extract<EngineEvent, { type: "fill" }>[] = [];
    slots.daemon = await startDaemon(daemonConfig(slots.mock, [ARG.slug], { MM_ENGINE_STRATEGY: AS }), {
      logger,
      listener: (e) => {
        if (e.type === "fill") fills.push(e);
      },
    });
    const m = slots.mock;
    const d = slots.daemon;
    // q = 0: r = 0.50, δ/2 ≈ 0.01995 → bid ⌊0.48005⌋ = 0.48, ask ⌈0.51995⌉ = 0.52.
    expect(await settledQuotes(m, ARG.yesTokenId, 2)).toEqual([
      { side: "buy", price: 0.48, size: 10 },
      { side: "sell", price: 0.52, size: 10 },
    ]);
    expect(d.engine.positionOf(ARG.yesTokenId)).toBe(0n);

    // The taker sells 110 at 0.48: 100 to the 0.49 bid, then 10 to ours. The 0.49 bid is then
    // restored, so the mid is 0.50 again and only our inventory changed.
    rest(m, ARG, "sell", "0.48", "110", "YES", TAKER);
    rest(m, ARG, "buy", "0.49", "100");
    await waitFor(
      () => d.engine.positionOf(ARG.yesTokenId) === 10_000_000n,
      2_000,
      "position +10 from user_fill",
    );
    expect(fills).toHaveLength(1);
    expect(fills[0]?.fill).toMatchObject({ side: "buy", priceMicro: 480_000, sizeMicro: 10_000_000n });
    expect(fills[0]?.source).toBe("stream");

    // q = 1: r = 0.50 − 0.02 = 0.48 → bid ⌊0.46005⌋ = 0.46, ask ⌈0.49995⌉ = 0.50. That ask is now
    // the best ask of the exchange's book, but the strategy reads the book without our own orders:
    // the mid stays 0.50 and the quotes stay put (reading our own ask would make the mid 0.495 and
    // chase the bid down to 0.45). Without the skew (q = 0) they would have returned to 0.48 / 0.52.
    expect(await settledQuotes(m, ARG.yesTokenId, 2)).toEqual([
      { side: "buy", price: 0.46, size: 10 },
      { side: "sell", price: 0.5, size: 10 },
    ]);
  });
});
