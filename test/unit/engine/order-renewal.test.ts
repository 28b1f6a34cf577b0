import { describe, expect, it } from "vitest";
import { toWei } from "../../../src/core/wei.js";
import type { EngineOptions } from "../../../src/engine/engine-deps.js";
import { renewAfterMs, renewLeadMs } from "../../../src/engine/order-renewal.js";
import { BOT, Harness, type HarnessOptions, oldClientOrderId, T0 } from "./support/harness.js";
import { testSign } from "./support/sign.js";

/*
 * signing.orderExpirySeconds: the signer stamps each order with an on-chain expiry, `lifetime` after
 * it was signed. The engine used to know nothing of it: a resting quote expired at the exchange and
 * its level stayed empty until mm learnt it had ended (here: the periodic reconcile, 30 s later).
 * Now a quote is cancel-replaced `lead` before its latest possible expiry, on a quiet book too.
 */

const LIFETIME_S = 60;

/** Renewal 5 s ahead; the periodic reconcile out of the window: it is not what replaces them. */
const RENEWING: Partial<EngineOptions> = {
  orderExpirySeconds: LIFETIME_S,
  orderRenewLeadMs: 5_000,
  reconcileIntervalMs: 600_000,
};

/** A harness whose signer stamps expiries `lifetime` s from signing, as withExpiry does. */
function expiring(options: Partial<EngineOptions>, startupPolicy?: "adopt", more?: HarnessOptions): Harness {
  const h: Harness = new Harness({
    ...more,
    sign: (markets) => async (i) => ({
      ...testSign(i, markets),
      expiry: Math.floor(h.clock.now() / 1000) + LIFETIME_S,
    }),
    options: { ...options, ...(startupPolicy === undefined ? {} : { startupPolicy }) },
  });
  const [yes] = h.tokens();
  h.crowdQuote(yes, "0.48", "0.52");
  return h;
}

/** Runs `ms` in 100 ms steps; returns the instants at which the token had not both sides quoted. */
async function gaps(h: Harness, tokenId: string, ms: number): Promise<number[]> {
  const out: number[] = [];
  for (let t = 0; t < ms; t += 100) {
    await h.run(100);
    if (h.botQuotes(tokenId).length !== 2) out.push(h.clock.now());
  }
  return out;
}

/** Counts the venue's order_expired events from now on. */
function expiries(h: Harness): () => number {
  let n = 0;
  h.venue.subscribe((e) => {
    if (e.type === "order_expired") n++;
  });
  return () => n;
}

/** Runs `ms` in 10 ms steps; returns the most of our `side` orders on the token resting at once. */
async function mostResting(h: Harness, tokenId: string, side: "buy" | "sell", ms: number): Promise<number> {
  let most = 0;
  for (let t = 0; t < ms; t += 10) {
    await h.run(10);
    most = Math.max(most, h.botOrders(tokenId).filter((o) => o.side === side).length);
  }
  return most;
}

describe("engine: quotes replaced before their on-chain expiry", () => {
  it("cancel-replaces a resting quote lead before it expires, on a quiet book: no gap, none expired", async () => {
    const h = expiring(RENEWING);
    const [yes] = h.tokens();
    const expired = expiries(h);
    await h.engine.start();
    await h.run();
    const first = h.botOrders(yes).map((o) => o.id);
    expect(first).toHaveLength(2);
    const start = h.clock.now();
    // Four lifetimes of a book that never changes.
    expect(await gaps(h, yes, 4 * LIFETIME_S * 1_000)).toEqual([]);
    expect(expired()).toBe(0);
    // Replaced at creation + 60 s − 1 s (the signer's whole seconds) − 5 s: every 54 s.
    const renewals = h.eventsOf("quote").filter((e) => e.atMs > start);
    expect([...new Set(renewals.map((e) => e.atMs - start))]).toEqual([54_000, 108_000, 162_000, 216_000]);
    // Both quotes, created together, are renewed together: the ask place first (its replacement
    // goes out, the old ask is cancelled once it rests), the bid cancel-then-place (cancelled at
    // once, its replacement placed on the cancel's answer: the bid's USDC is not needed twice).
    const sends = h.exchange.calls.filter((c) => c.op === "place" || c.op === "cancel");
    const after = sends.slice(sends.length - 16);
    expect(after.map((c) => c.op)).toEqual(
      Array.from({ length: 4 }, () => ["cancel", "place", "place", "cancel"]).flat(),
    );
    const now = h.botOrders(yes).map((o) => o.id);
    for (const id of first) expect(now).not.toContain(id);
  });

  it("tries a refused replacement again before the old order's expiry, once its old bid is gone too", async () => {
    const h = expiring(RENEWING);
    const [yes] = h.tokens();
    const expired = expiries(h);
    await h.engine.start();
    await h.run();
    const start = h.clock.now();
    await h.run(50_000);
    // The ask's replacement (placed beside the old ask) is accepted; the bid's (placed on the old
    // bid's cancel's answer) is refused.
    h.exchange.scriptPlace({ kind: "pass" }, { kind: "reject", code: "invalid_amounts" });
    const holes = await gaps(h, yes, 20_000);
    expect(expired()).toBe(0);
    const outcomes = h.eventsOf("place_outcome").filter((e) => e.atMs > start);
    // Tried again at the renewal retry (max(1 s, lead / 4) later), before the old bid's expiry (59 s
    // at the earliest), though nothing of ours rests on its level any more and the ask is renewed:
    // a bands token on a quiet book has no other step, and the level stayed empty until the next
    // renewal (108 s).
    expect(outcomes.map((e) => [e.atMs - start, e.intent.quote.side, e.outcome])).toEqual([
      [54_000, "sell", "accepted"],
      [54_000, "buy", "rejected"],
      [55_250, "buy", "accepted"],
    ]);
    // The bid's level was empty from its cancel to the retry, and at no other time.
    expect(holes.length).toBeGreaterThan(0);
    expect(holes.map((t) => t - start).filter((t) => t < 54_000 || t > 55_300)).toEqual([]);
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);
  });

  it("without the setting (0) nothing is replaced and the quote expires: a gap until the reconcile", async () => {
    // Control: the signer still stamps expiries, the engine is not told of them.
    const h = expiring({ reconcileIntervalMs: 600_000 });
    const [yes] = h.tokens();
    await h.engine.start();
    await h.run();
    const holes = await gaps(h, yes, 100_000);
    expect(holes[0]).toBe(T0 + LIFETIME_S * 1_000);
    expect(holes.length).toBeGreaterThan(100); // 10 s and more
  });

  it("replaces an adopted order at its token's first step: its signing time is unknown", async () => {
    const leftAt = async (options: Partial<EngineOptions>) => {
      const h = expiring(options, "adopt");
      const [yes] = h.tokens();
      // Left by an earlier run at the price bands quotes (0.47): adopted, it would simply rest.
      const leftover = h.leftover(yes, "buy", "0.47", oldClientOrderId(yes, "buy", 1));
      await h.engine.start();
      await h.run();
      expect(h.botQuotes(yes).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);
      return h.botOrders(yes).some((o) => o.id === leftover);
    };
    expect(await leftAt({ orderExpirySeconds: LIFETIME_S })).toBe(false);
    expect(await leftAt({})).toBe(true); // control: kept without the setting
  });

  it("keeps within the hard cap: a replacement with no room beside the old order waits for its cancel", async () => {
    // Each order takes the whole cap: both resting at once could fill 20.
    const risk = { inventory: { perMarket: { soft: "10", hard: "10" } } };
    const h = expiring({ orderExpirySeconds: LIFETIME_S, reconcileIntervalMs: 600_000 }, undefined, {
      risk,
      latencyMs: 50,
    });
    const [yes] = h.tokens();
    const starting = h.engine.start();
    await h.run(500);
    await starting;
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);
    const expired = expiries(h);
    expect(await mostResting(h, yes, "buy", 70_000)).toBe(1);
    const held = h.eventsOf("decision").filter((e) => e.decision.reason === "in_flight_held");
    expect(held.length).toBeGreaterThan(0);
    // Renewed all the same, before the expiry (60.5 s after the first placement).
    expect(h.exchange.of("place")).toHaveLength(4);
    expect(expired()).toBe(0);
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);
  });

  it("renews an ask the shares held leave no room beside cancel-then-place, before its expiry", async () => {
    const h = expiring({ orderExpirySeconds: LIFETIME_S, reconcileIntervalMs: 600_000 }, undefined, {
      latencyMs: 50,
    });
    const [yes] = h.tokens();
    // 10 shares held: the ask's replacement cannot rest beside the old 10-share ask.
    h.venue.debit(BOT, yes, toWei("4990", "shares"));
    const starting = h.engine.start();
    await h.run(500);
    await starting;
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);
    const expired = expiries(h);
    // Never two asks (nor an ask the exchange refused for shares), held back for the old one's cancel…
    expect(await mostResting(h, yes, "sell", 70_000)).toBe(1);
    expect(h.eventsOf("place_outcome").filter((e) => e.outcome === "rejected")).toHaveLength(0);
    expect(h.eventsOf("decision").some((e) => e.decision.reason === "in_flight_held")).toBe(true);
    // …and renewed all the same, before the expiry (60.5 s after the first placement).
    expect(h.exchange.of("place").filter((c) => c.arg.includes(" sell "))).toHaveLength(2);
    expect(expired()).toBe(0);
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);
  });

  it("renews nothing once the engine stopped", async () => {
    const h = expiring({ orderExpirySeconds: LIFETIME_S });
    await h.engine.start();
    await h.run();
    await h.engine.stop("test", 5_000);
    await h.run();
    const events = h.events.length;
    const calls = h.exchange.calls.length;
    await h.run(2 * LIFETIME_S * 1_000);
    expect(h.events.length).toBe(events);
    expect(h.exchange.calls.length).toBe(calls);
  });
});

describe("renewal timing", () => {
  it("renews lead + 1 s before the lifetime, and no earlier than half-life", () => {
    expect(renewAfterMs(60_000, 5_000)).toBe(54_000);
    // Shorter than twice the lead: half-life, so a replacement is never replaced at once.
    expect(renewAfterMs(6_000, 10_000)).toBe(3_000);
    expect(renewLeadMs(1_000)).toBe(5_000);
    expect(renewLeadMs(4_000)).toBe(8_000);
  });
});
