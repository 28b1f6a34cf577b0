import { describe, expect, it } from "vitest";
import { startDaemon } from "../../../src/app/daemon.js";
import { LiveClock } from "../../../src/core/live-clock.js";
import { createMockExchange } from "../../../src/mock/mock-exchange.js";
import { OffsetClock } from "../../support/offset-clock.js";
import {
  daemonConfig,
  daemonSlots,
  market,
  memoryLogger,
  SCENARIO,
  seedMarket,
  settledQuotes,
  WALLET,
} from "./support.js";

const ARG = market("arg-vs-fra-final-arg-win");
const BANDS = JSON.stringify({
  name: "bands",
  params: { reference: "mid", bands: [{ margin: "0.03", size: "10" }] },
});
/** The bot's clock is this far behind the exchange's: more than the orders' lifetime. */
const BEHIND_MS = 120_000;
const EXPIRY_S = 60;

const slots = daemonSlots();

/**
 * signing.orderExpirySeconds is judged by the exchange on its own clock (400 `expired`). Set from
 * the local clock, a host 120 s behind the exchange signed every order already expired by 60 s, and
 * nothing ever rested. The expiry is now taken from the HTTP client's estimate of the exchange's
 * clock (X-Server-Time), which the start-up reads have fed before the first placement.
 */
describe("order expiry on the exchange's clock", () => {
  it("a bot clock 120 s behind the exchange: quotes rest, expiring orderExpirySeconds after the exchange's now", async () => {
    const m = await createMockExchange({
      scenario: SCENARIO,
      flow: false,
      admin: true,
      clock: new LiveClock(),
    });
    slots.mock = m;
    seedMarket(m, ARG, "0.50", "0.60");
    const { logger } = memoryLogger("warn");
    slots.daemon = await startDaemon(
      daemonConfig(m, [ARG.slug], {
        MM_ENGINE_STRATEGY: BANDS,
        MM_SIGNING_ORDER_EXPIRY_SECONDS: String(EXPIRY_S),
      }),
      { logger, clock: new OffsetClock(-BEHIND_MS) },
    );
    expect(await settledQuotes(m, ARG.yesTokenId, 2)).toEqual([
      { side: "buy", price: 0.52, size: 10 },
      { side: "sell", price: 0.58, size: 10 },
    ]);
    const nowS = Date.now() / 1000;
    for (const o of m.context.venue.openOrders(WALLET)) {
      expect(o.expiry).toBeGreaterThan(nowS + EXPIRY_S - 10);
      expect(o.expiry).toBeLessThanOrEqual(Math.ceil(nowS) + EXPIRY_S);
    }
  });
});
