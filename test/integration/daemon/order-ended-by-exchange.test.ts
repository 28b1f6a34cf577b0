import { describe, expect, it } from "vitest";
import { startDaemon } from "../../../src/app/daemon.js";
import {
  daemonConfig,
  daemonSlots,
  market,
  memoryLogger,
  openOnMock,
  seedMarket,
  startMock,
  WALLET,
  waitFor,
} from "./support.js";

const ARG = market("arg-vs-fra-final-arg-win");
const slots = daemonSlots();

/**
 * An order the exchange ends itself (self-trade prevention, an expiry, an operator's cancel) is
 * pushed on user_orders as order_cancelled. It used to be only logged: the engine believed the
 * quote rested until the periodic reconcile (30 s by default), and did not quote that level again
 * meanwhile. Now the push of a tracked resting order brings a reconcile within its debounce.
 */
describe("an order cancelled by the exchange, not by mm", () => {
  it("is replaced within a second or two, long before the periodic reconcile", async () => {
    const m = await startMock();
    slots.mock = m;
    seedMarket(m, ARG, "0.50", "0.60");
    slots.daemon = await startDaemon(daemonConfig(m, [ARG.slug], { MM_RECONCILE_INTERVAL_MS: "600000" }), {
      logger: memoryLogger("warn").logger,
    });
    await waitFor(() => openOnMock(m, ARG.yesTokenId).length > 0, 3_000, "quotes");
    await new Promise((r) => setTimeout(r, 300));
    const before = openOnMock(m, ARG.yesTokenId);
    const victim = before[0];
    if (victim === undefined) throw new Error("no quote");
    expect(m.context.venue.cancel(WALLET, victim.orderId).ok).toBe(true);
    await waitFor(
      () => {
        const now = openOnMock(m, ARG.yesTokenId);
        return now.length === before.length && now.every((o) => o.orderId !== victim.orderId);
      },
      3_000,
      "the cancelled quote replaced",
    );
  });
});
