import { describe, expect, it } from "vitest";
import type { EngineOptions } from "../../../src/engine/engine-deps.js";
import { type ConfiguredStrategy, parseStrategyConfig } from "../../../strategies/registry.js";
import { type CancelReasonsRig, cancelReasonsRigs } from "./support/cancel-reasons-rig.js";
import type { HarnessOptions } from "./support/harness.js";
import { testSign } from "./support/sign.js";

/*
 * Every cancel the engine asks for carries a reason from one closed set (intents.ts CancelReason),
 * counted in mm_order_cancel_requests_total{reason} and journaled on the cancel's row. These are the
 * reasons a quoting step gives: the order manager's diff (requote, not_desired, expiring,
 * superseded) and the step's own view of why a level emptied (risk_limit). Before, a cancel carried
 * a free string (or none the operator could see): no counter, NULL in the journal.
 */

const newRig = cancelReasonsRigs();

/** A rig quoting token 1's yes against a crowd at 0.48/0.52, started and settled. */
async function quoting(o: HarnessOptions = {}): Promise<CancelReasonsRig> {
  const r = newRig(o);
  const [yes] = r.h.tokens();
  r.h.crowdQuote(yes, "0.48", "0.52");
  await r.h.engine.start();
  await r.h.run();
  expect(r.h.botQuotes(yes)).toHaveLength(2);
  return r;
}

/** A bands strategy the test switches at run time (its quotes filtered by `only`, when set). */
function switchable(size = "10"): { strategy: ConfiguredStrategy; set(size: string, only?: "buy"): void } {
  let inner = parseStrategyConfig({
    name: "bands",
    params: { reference: "mid", bands: [{ margin: "0.03", size }] },
  });
  let side: "buy" | undefined;
  return {
    strategy: {
      name: inner.name,
      params: inner.params,
      quote: (ctx) => inner.quote(ctx).filter((q) => side === undefined || q.side === side),
    },
    set(s, only) {
      inner = parseStrategyConfig({
        name: "bands",
        params: { reference: "mid", bands: [{ margin: "0.03", size: s }] },
      });
      side = only;
    },
  };
}

describe("cancel reasons of the quoting step", () => {
  it("requote: the crowd moves, both quotes are cancel-replaced", async () => {
    const r = await quoting();
    const [yes] = r.h.tokens();
    r.h.crowdQuote(yes, "0.44", "0.48");
    await r.h.run();
    expect(r.h.botQuotes(yes).sort()).toEqual(["buy 0.43 10", "sell 0.49 10"]);
    expect(r.requested()).toEqual(["requote", "requote"]);
    expect(await r.counted()).toEqual({ requote: 2 });
    expect(r.journaled("cancel")).toEqual(["requote", "requote"]);
  });

  it("not_desired: the strategy stops quoting the ask", async () => {
    const s = switchable();
    const r = await quoting({ configured: s.strategy });
    const [yes] = r.h.tokens();
    s.set("10", "buy");
    r.h.crowdQuote(yes, "0.47", "0.52"); // a book event steps the token
    await r.h.run();
    expect(r.h.botQuotes(yes).some((q) => q.startsWith("sell"))).toBe(false);
    expect(r.requested()).toContain("not_desired");
    expect((await r.counted()).not_desired).toBe(1);
    expect(r.journaled("cancel")).toContain("not_desired");
  });

  it("risk_limit: an order-size limit drops both quotes, which are cancelled for it", async () => {
    const s = switchable("2");
    const r = await quoting({ configured: s.strategy, risk: { order: { maxSize: "5", oversize: "drop" } } });
    const [yes] = r.h.tokens();
    s.set("10");
    r.h.crowdQuote(yes, "0.47", "0.52");
    await r.h.run();
    expect(r.h.botQuotes(yes)).toEqual([]);
    expect(r.requested()).toEqual(["risk_limit", "risk_limit"]);
    expect(await r.counted()).toEqual({ risk_limit: 2 });
    expect(r.journaled("cancel")).toEqual(["risk_limit", "risk_limit"]);
  });

  it("requote, not not_desired: a replacement the in-flight fit holds back still requotes its level", async () => {
    // Each old order takes the whole hard cap: its replacement waits for its cancel (engine-in-flight.ts),
    // so the diff saw no desired quote on the level.
    const r = newRig({
      risk: { inventory: { perMarket: { soft: "10", hard: "10" } } },
      latencyMs: 50,
    });
    const yes = await r.startQuoting();
    r.h.crowdQuote(yes, "0.49", "0.53");
    await r.h.run(20);
    expect(r.h.eventsOf("decision").some((e) => e.decision.reason === "in_flight_held")).toBe(true);
    await r.h.run(1_000); // the cancels' answers, then the reconcile that settles their fills
    expect(r.h.botQuotes(yes).sort()).toEqual(["buy 0.48 10", "sell 0.54 10"]);
    expect(r.requested()).toEqual(["requote", "requote"]);
    expect(await r.counted()).toEqual({ requote: 2 });
    expect(r.journaled("cancel")).toEqual(["requote", "requote"]);
  });

  it("expiring: a quote is renewed before its on-chain expiry, on a quiet book", async () => {
    const options: Partial<EngineOptions> = {
      orderExpirySeconds: 60,
      orderRenewLeadMs: 5_000,
      reconcileIntervalMs: 600_000,
    };
    const r = newRig({
      options,
      sign: (markets) => async (i) => ({
        ...testSign(i, markets),
        expiry: Math.floor(r.h.clock.now() / 1000) + 60,
      }),
    });
    const [yes] = r.h.tokens();
    r.h.crowdQuote(yes, "0.48", "0.52");
    await r.h.engine.start();
    await r.h.run(60_000);
    expect(r.h.botQuotes(yes)).toHaveLength(2);
    const reasons = new Set(r.requested());
    expect([...reasons]).toEqual(["expiring"]);
    expect((await r.counted()).expiring).toBeGreaterThanOrEqual(2);
    expect(new Set(r.journaled("cancel"))).toEqual(new Set(["expiring"]));
  });

  it("superseded: a queued placement is replaced before it is sent (no request: counted, not_sent)", async () => {
    const r = newRig({ latencyMs: 50, options: { queue: { concurrency: 1 } } });
    const yes = await r.startQuoting();
    r.h.crowdQuote(yes, "0.44", "0.48");
    await r.h.run(10); // one request at a time: the cancels go first, the new placements wait queued
    r.h.crowdQuote(yes, "0.40", "0.44");
    await r.h.run(1_000);
    expect(r.h.botQuotes(yes).sort()).toEqual(["buy 0.39 10", "sell 0.45 10"]);
    expect(r.requested()).toContain("superseded");
    expect((await r.counted()).superseded).toBeGreaterThanOrEqual(1);
    // Nothing was sent for it: the journal counts it among the unsent cancels, no cancel row.
    expect(r.journaled("cancel")).not.toContain("superseded");
  });

  it("risk_limit, not superseded: a queued placement withdrawn because the guard dropped its level", async () => {
    // Review 22: the diff retired every queued placement as `superseded`, though nothing replaced
    // these — the order-size limit emptied their levels — so the limit's drops read as churn.
    const s = switchable("2");
    const r = newRig({
      latencyMs: 50,
      options: { queue: { concurrency: 1 } },
      risk: { order: { maxSize: "5", oversize: "drop" } },
      configured: s.strategy,
    });
    const yes = await r.startQuoting();
    expect(r.h.botQuotes(yes)).toHaveLength(2);
    // The crowd moves: the cancels go first, one request at a time; the replacements wait queued.
    r.h.crowdQuote(yes, "0.44", "0.48");
    await r.h.run(10);
    // Now the strategy asks for more than the order-size limit: the guard drops both levels.
    s.set("10");
    r.h.crowdQuote(yes, "0.43", "0.48");
    await r.h.run(1_000);
    expect(r.h.botQuotes(yes)).toEqual([]);
    const dropped = r.h.eventsOf("decision").filter((e) => e.decision.reason === "order_size_exceeded");
    expect(dropped.length).toBeGreaterThan(0);
    // The queued replacements were withdrawn because the limit dropped their levels.
    expect(r.requested()).not.toContain("superseded");
    expect((await r.counted()).superseded ?? 0).toBe(0);
    expect((await r.counted()).risk_limit ?? 0).toBeGreaterThanOrEqual(1);
  });

  it("not_desired, not superseded: a queued placement on a level the strategy stopped quoting", async () => {
    const s = switchable();
    const r = newRig({
      latencyMs: 50,
      options: { queue: { concurrency: 1 } },
      configured: s.strategy,
    });
    const yes = await r.startQuoting();
    r.h.crowdQuote(yes, "0.44", "0.48");
    await r.h.run(10); // both cancels on their way, both replacements queued
    s.set("10", "buy"); // the ask's level is no longer quoted: its queued replacement is withdrawn
    r.h.crowdQuote(yes, "0.44", "0.49");
    await r.h.run(1_000);
    expect(r.h.botQuotes(yes)).toEqual(["buy 0.43 10"]);
    expect(r.requested().sort()).toEqual(["not_desired", "requote", "requote"]);
    // Never sent: no cancel row, counted among the unsent.
    expect(r.journaled("cancel")).toEqual(["requote", "requote"]);
  });
});
