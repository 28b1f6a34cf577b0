import { describe, expect, it } from "vitest";
import { toWei } from "../../../src/core/wei.js";
import { USDC } from "../../../src/venue/ledger.js";
import { BOT, Harness } from "../engine/support/harness.js";
import { testSign } from "../engine/support/sign.js";

/*
 * Review (rexpiry) of 1423d5c: place-first renewal. The exchange reserves a resting bid's USDC
 * (spec: insufficient_funds "balance overdraft"; the mock and SimVenue do), and the engine does not
 * bound bids by the wallet's USDC (only asks by the shares held). A wallet funded for its quotes but
 * not for each bid twice (the normal case for a market maker sizing quotes to its balance) has every
 * place-first replacement of a bid refused `insufficient_funds` while its stand-in rests. The renewal
 * retries it every max(1 s, lead/4) until the stand-in expires: ~5 counted errors per bid and lifetime,
 * all bids of a batch created together at once, so three markets trip the wallet-wide error-rate halt
 * (10 in 30 s: a cancel-all and 60 s without quotes) on every lifetime, on a quiet book. Before the
 * feature, the orders simply expired. A refused place-first replacement should fall back to
 * cancel-then-place (or back off), not be re-sent beside the order that reserves its funds.
 */

const LIFETIME_S = 60;

describe("review rexpiry: place-first renewal of bids in a wallet funded once for its quotes", () => {
  it("renews three markets' bids without tripping the error-rate halt", async () => {
    const h: Harness = new Harness({
      markets: 3,
      sign: (markets) => async (i) => ({
        ...testSign(i, markets),
        expiry: Math.floor(h.clock.now() / 1000) + LIFETIME_S,
      }),
      options: { orderExpirySeconds: LIFETIME_S, orderRenewLeadMs: 5_000, reconcileIntervalMs: 600_000 },
    });
    for (const i of [1, 2, 3]) h.crowdQuote(h.tokens(i)[0], "0.48", "0.52");
    await h.engine.start();
    await h.run();
    const bids = () => h.botOrders().filter((o) => o.side === "buy").length;
    expect(bids()).toBeGreaterThanOrEqual(3);
    // Funded for the resting quotes plus 2 USDC: not for a second 4.70 USDC bid beside one.
    const { available } = h.venue.balances(BOT).usdc;
    h.venue.debit(BOT, USDC, available - toWei("2", "usdc"));
    expect(h.venue.balances(BOT).usdc.available).toBe(toWei("2", "usdc"));

    await h.run(2 * LIFETIME_S * 1_000);

    const refused = h.eventsOf("place_outcome").filter((e) => e.code === "insufficient_funds");
    const halts = h.eventsOf("decision").filter((e) => e.decision.reason === "error_rate_halt");
    // Pinned: renewal does not make a wallet-wide halt out of a funding it never needed before.
    // At most one refusal per bid and lifetime (a fix that falls back to cancel-then-place on it).
    expect(halts).toHaveLength(0);
    expect(refused.length).toBeLessThanOrEqual(3 * 2);
    expect(bids()).toBe(3);
  });
});
