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
  openOnMock,
  rest,
  SCENARIO,
  seedMarket,
  settledQuotes,
  startMock,
  waitFor,
} from "./support.js";

const ARG = market("arg-vs-fra-final-arg-win");
const TAKER = SCENARIO.wallets[1]?.address.toLowerCase() as Address;

const slots = daemonSlots();

describe("a dropped WebSocket", () => {
  it("a fill missed while the sockets were down is backfilled from REST; both gateways reconnect and quoting resumes", async () => {
    const m = await startMock();
    slots.mock = m;
    seedMarket(m, ARG, "0.50", "0.60");
    m.context.venue.credit(TAKER, ARG.yesTokenId, toWei("100"));
    const fills: Extract<EngineEvent, { type: "fill" }>[] = [];
    const reconciles: string[] = [];
    const { logger, sink } = memoryLogger("warn");
    const d = await startDaemon(daemonConfig(m, [ARG.slug]), {
      logger,
      listener: (e) => {
        if (e.type === "fill") fills.push(e);
        if (e.type === "reconcile") reconciles.push(e.summary.reason);
      },
    });
    slots.daemon = d;
    const quotes = await settledQuotes(m, ARG.yesTokenId, 4);
    const bestBid = Math.max(...quotes.filter((q) => q.side === "buy").map((q) => q.price));
    const size = quotes.find((q) => q.side === "buy" && q.price === bestBid)?.size ?? 0;

    m.admin.dropAllSockets();
    // While both gateways are down, a taker sells into our best bid: the user_fill is never pushed.
    rest(m, ARG, "sell", bestBid.toFixed(2), String(size), "YES", TAKER);
    await waitFor(
      () => d.engine.positionOf(ARG.yesTokenId) === toWei(String(size)),
      5_000,
      "the missed fill",
    );
    // The drop also cut HTTP requests in flight, so an "ambiguous" reconcile may backfill the fill
    // before the gateways are back; either way both gateways come back and tell the engine.
    const gateways = () =>
      new Set(
        sink
          .records()
          .filter((r) => String(r.msg).includes("reconnected: reconciling"))
          .map((r) => r.gateway),
      );
    await waitFor(() => gateways().size === 2, 5_000, "both gateways reconnected");
    await waitFor(
      () => reconciles.includes("reconnect") || reconciles.length >= 3,
      3_000,
      "a reconcile after it",
    );
    expect(fills).toHaveLength(1);
    expect(fills[0]?.source).toBe("backfill");
    expect(fills[0]?.fill).toMatchObject({ side: "buy", priceMicro: Math.round(bestBid * 1e6) });
    // And quoting resumed on the resubscribed books.
    await waitFor(() => openOnMock(m, ARG.yesTokenId).some((o) => o.side === "buy"), 3_000, "a bid again");
  });
});
