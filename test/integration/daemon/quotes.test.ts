import { describe, expect, it } from "vitest";
import { startDaemon } from "../../../src/app/daemon.js";
import type { MockExchange } from "../../../src/mock/mock-exchange.js";
import {
  daemonConfig,
  daemonSlots,
  market,
  memoryLogger,
  openOnMock,
  rest,
  seedMarket,
  settledQuotes,
  startMock,
  waitFor,
} from "./support.js";

const ARG = market("arg-vs-fra-final-arg-win");

const slots = daemonSlots();

/** True when the token has at least one bid and one ask of ours resting on the mock. */
const twoSided = (m: MockExchange, tokenId: string): boolean => {
  const sides = new Set(openOnMock(m, tokenId).map((o) => o.side));
  return sides.has("buy") && sides.has("sell");
};

describe("mm run against the mock exchange, in process, over real sockets", () => {
  it("quotes both tokens within 1 s of the first book snapshot, with the default bands", async () => {
    slots.mock = await startMock();
    seedMarket(slots.mock, ARG, "0.50", "0.60"); // YES 0.50/0.60, NO 0.40/0.50
    const { logger } = memoryLogger();
    let snapshotAt: number | undefined;
    slots.daemon = await startDaemon(daemonConfig(slots.mock, [ARG.slug]), {
      logger,
      onMarketFrame: (frame) => {
        if (frame.type === "book_snapshot") snapshotAt ??= performance.now();
      },
    });
    const m = slots.mock;
    await waitFor(() => twoSided(m, ARG.yesTokenId) && twoSided(m, ARG.noTokenId), 2_000, "two-sided quotes");
    const quotedAt = performance.now();
    expect(snapshotAt).toBeDefined();
    expect(quotedAt - (snapshotAt ?? 0)).toBeLessThan(1_000);

    // Settled, per token: one bid and one ask per band around the other trader's mid — our own
    // quotes are not part of the book the strategy reads, so they do not pull it (YES mid 0.55:
    // 0.54 / 0.52 and 0.56 / 0.58; NO mid 0.45: 0.44 / 0.42 and 0.46 / 0.48).
    for (const [tokenId, mid] of [
      [ARG.yesTokenId, 0.55],
      [ARG.noTokenId, 0.45],
    ] as const) {
      const q = await settledQuotes(m, tokenId, 4);
      const at = (d: number) => Math.round((mid + d) * 100) / 100;
      expect(q).toEqual([
        { side: "buy", price: at(-0.03), size: 25 },
        { side: "buy", price: at(-0.01), size: 10 },
        { side: "sell", price: at(0.01), size: 10 },
        { side: "sell", price: at(0.03), size: 25 },
      ]);
    }
    expect(slots.daemon.engine.status()).toMatchObject({ started: true, reconciled: true, quotingTokens: 2 });
  });

  it("requotes within 1 s when another trader moves the mid", async () => {
    slots.mock = await startMock();
    seedMarket(slots.mock, ARG, "0.50", "0.60");
    const { logger } = memoryLogger();
    slots.daemon = await startDaemon(daemonConfig(slots.mock, [ARG.slug]), { logger });
    const m = slots.mock;
    const before = await settledQuotes(m, ARG.yesTokenId, 4);
    const bestAsk = Math.min(...before.filter((q) => q.side === "sell").map((q) => q.price));
    const oldBest = openOnMock(m, ARG.yesTokenId).find(
      (o) => o.side === "sell" && Number(o.price) / 1e6 === bestAsk,
    );
    expect(oldBest).toBeDefined();
    // A bid one tick below our best ask: the mid rises, so both asks must move up.
    rest(m, ARG, "buy", (bestAsk - 0.01).toFixed(2), "50");
    const movedAt = performance.now();
    await waitFor(
      () => {
        const asks = openOnMock(m, ARG.yesTokenId).filter((o) => o.side === "sell");
        return asks.length === 2 && asks.every((o) => Number(o.price) / 1e6 > bestAsk + 1e-9);
      },
      1_000,
      `both asks requoted above ${bestAsk}`,
    );
    expect(performance.now() - movedAt).toBeLessThan(1_000);
    expect(openOnMock(m).some((o) => o.orderId === oldBest?.orderId)).toBe(false);
  });
});
