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
 * signing.orderExpirySeconds as a dead-man's switch: every order expires 4 s after it was signed
 * (the shortest lifetime the config allows with a 1 s request timeout: 2 × (timeout + 1 s)).
 * The mock (the spec's exchange) expires resting orders on time (EXPIRED, pushed as
 * order_cancelled reason expired). The daemon used to let each quote expire and requote only once
 * it had learnt the order ended, a gap on every lifetime; now it replaces each quote before its
 * expiry (at half-life for a lifetime this short: order-renewal.ts): the ask placement first, the
 * bid cancel-then-place (its USDC is not there twice), a gap of one cancel's round trip.
 */
describe("quotes replaced before their on-chain expiry (daemon against the mock)", () => {
  it("a 4 s lifetime over 7 s: no quote of ours expires, both sides quoted throughout", async () => {
    const m = await startMock();
    slots.mock = m;
    seedMarket(m, ARG, "0.50", "0.60");
    let expired = 0;
    m.context.venue.subscribe((e) => {
      if (e.type === "order_expired" && e.order.userWallet === WALLET) expired++;
    });
    slots.daemon = await startDaemon(
      daemonConfig(m, [ARG.slug], {
        MM_SIGNING_ORDER_EXPIRY_SECONDS: "4",
        MM_EXCHANGE_REQUEST_TIMEOUT_MS: "1000",
        MM_RECONCILE_INTERVAL_MS: "600000",
      }),
      { logger: memoryLogger("warn").logger },
    );
    const sides = () => new Set(openOnMock(m, ARG.yesTokenId).map((o) => o.side));
    await waitFor(() => sides().size === 2, 3_000, "quotes");
    const first = openOnMock(m, ARG.yesTokenId).map((o) => o.orderId);
    let askGaps = 0;
    let bidGap = 0;
    let longestBidGap = 0;
    const until = Date.now() + 7_000;
    while (Date.now() < until) {
      await new Promise((r) => setTimeout(r, 20));
      const now = sides();
      if (!now.has("sell")) askGaps++;
      bidGap = now.has("buy") ? 0 : bidGap + 1;
      longestBidGap = Math.max(longestBidGap, bidGap);
    }
    expect(expired).toBe(0);
    expect(askGaps).toBe(0);
    // A bid's level is empty only between its cancel's answer and its replacement's (a few ms on
    // 127.0.0.1; generous for a loaded machine), never until an expiry (2 s and more).
    expect(longestBidGap).toBeLessThan(25);
    // Renewed: none of the first quotes is still resting.
    const now = openOnMock(m, ARG.yesTokenId).map((o) => o.orderId);
    for (const id of first) expect(now).not.toContain(id);
  });
});
