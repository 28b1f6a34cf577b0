import { describe, expect, it } from "vitest";
import { toWei } from "../../../src/core/wei.js";
import { USDC } from "../../../src/venue/ledger.js";
import { BOT, Harness, T0 } from "./support/harness.js";
import { testSign } from "./support/sign.js";

/*
 * review21 r2a — 1dff80c bounds a place-first renewal refused `insufficient_funds` to one refusal
 * per bid and lifetime, each still counted towards the wallet-wide error-rate halt (more than 10 in
 * 30 s). But orders placed together (the start's burst) renew together, every lifetime, so a wallet
 * funded for its quotes but not for each bid twice (the normal sizing) gets one refusal per bid in
 * the same instant. The fexpiry tests used 3 markets, under the threshold. Bids are now renewed
 * cancel-then-place (order-manager-diff.ts), and a renewal's replacement refused is stepped again
 * until the old order's earliest expiry (order-renewal.ts).
 */

const LIFETIME_S = 60;

async function quoting(markets: number): Promise<Harness> {
  const h: Harness = new Harness({
    markets,
    sign: (ms) => async (i) => ({
      ...testSign(i, ms),
      expiry: Math.floor(h.clock.now() / 1000) + LIFETIME_S,
    }),
    options: { orderExpirySeconds: LIFETIME_S, orderRenewLeadMs: 5_000, reconcileIntervalMs: 600_000 },
  });
  for (let i = 1; i <= markets; i++) h.crowdQuote(h.tokens(i)[0], "0.48", "0.52");
  await h.engine.start();
  await h.run();
  expect(bids(h)).toBe(markets);
  // Funded for the resting quotes plus 2 USDC: not for a second 4.70 USDC bid beside each.
  const { available } = h.venue.balances(BOT).usdc;
  h.venue.debit(BOT, USDC, available - toWei("2", "usdc"));
  return h;
}

const bids = (h: Harness) => h.botOrders().filter((o) => o.side === "buy").length;

describe("renewal of many bids at once in a wallet funded once (review r2a)", () => {
  it("12 markets: the renewal does not trip the wallet-wide error-rate halt", async () => {
    const h = await quoting(12);
    await h.run(2 * LIFETIME_S * 1_000);
    const halts = h.eventsOf("decision").filter((e) => e.decision.reason === "error_rate_halt");
    // Today: 12 refusals at 54 s (one per bid, all at once), the halt trips at 54 s: a cancel-all
    // and 60 s without a quote, on every lifetime of a quiet book.
    expect(halts.map((e) => e.atMs - T0)).toEqual([]);
  });

  it("10 markets: every bid level is quoted again before the old bids' expiry", async () => {
    const h = await quoting(10);
    // Renewal at 54 s; the old orders expire at 59–60 s.
    await h.run(58_000);
    // Today 8: the funds the first cancel-then-place cancels freed were taken by other markets'
    // place-first replacements (accepted), so two cancel-then-place replacements were refused too,
    // with no stand-in left; a bands token on a quiet book is not stepped again, and those levels
    // stay empty until the next renewal of the token's ask (108 s): most of a lifetime.
    expect(bids(h)).toBe(10);
    await h.run(62_000);
    expect(bids(h)).toBe(10);
  });
});
