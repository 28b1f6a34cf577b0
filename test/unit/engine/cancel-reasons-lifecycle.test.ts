import { describe, expect, it } from "vitest";
import { toWei } from "../../../src/core/wei.js";
import { USDC } from "../../../src/venue/ledger.js";
import { parseStrategyConfig } from "../../../strategies/registry.js";
import { type CancelReasonsRig, cancelReasonsRigs } from "./support/cancel-reasons-rig.js";
import { BOT, type HarnessOptions, oldClientOrderId, T0 } from "./support/harness.js";

/*
 * The cancels of the engine's own life carry their reason too (intents.ts CancelReason): the
 * start-up cancel-all (`startup`), the stop's cancels and cancel-alls (`shutdown`, whatever words
 * the stop was given) and the reconcile's cancels of orders not ours to keep (`orphan`); and a level
 * held empty by the refused-placement back-off shows in mm_quote_levels_backed_off.
 */

const newRig = cancelReasonsRigs();

describe("cancel reasons of start, stop and reconcile", () => {
  it("startup: the start-up cancel-all of an earlier run's orders", async () => {
    const r = newRig();
    const [yes] = r.h.tokens();
    r.h.crowdQuote(yes, "0.48", "0.52");
    r.h.leftover(yes, "buy", "0.40", oldClientOrderId(yes, "buy", 1));
    await r.h.engine.start();
    await r.h.run();
    expect(r.requested()).toEqual(["startup"]);
    expect(await r.counted()).toEqual({ startup: 1 });
    expect(r.journaled("cancel_all")).toEqual(["startup"]);
  });

  it("shutdown: every cancel and cancel-all of the stop, not the stop's own words", async () => {
    const r = newRig({ markets: 2 });
    for (let i = 1; i <= 2; i++) r.h.crowdQuote(r.h.tokens(i)[0], "0.48", "0.52");
    await r.h.engine.start();
    await r.h.run();
    expect(r.h.botOrders()).toHaveLength(4);
    const stopping = r.h.engine.stop("SIGTERM", 5_000);
    await r.h.run(5_000);
    expect(await stopping).toEqual({ openOrders: 0 });
    expect(new Set(r.requested())).toEqual(new Set(["shutdown"]));
    const counted = await r.counted();
    expect(Object.keys(counted)).toEqual(["shutdown"]);
    // Two market cancel-alls, the wallet's, and the four orders' own cancels riding along.
    expect(counted.shutdown).toBe(7);
    expect(new Set(r.journaled("cancel_all"))).toEqual(new Set(["shutdown"]));
    expect(new Set(r.journaled("cancel"))).toEqual(new Set(["shutdown"]));
  });

  it("quoting_disabled: placements in flight at the stop, accepted after it, are cancelled by the stopped steps", async () => {
    const r = newRig({ latencyMs: 20 });
    const yes = await r.startQuoting();
    r.h.crowdQuote(yes, "0.50", "0.54"); // requotes in flight when the stop comes
    await r.h.run(5);
    const stopping = r.h.engine.stop("SIGTERM", 5_000);
    await r.h.run(5_000);
    expect(await stopping).toEqual({ openOrders: 0 });
    expect(r.requested()).toEqual([
      "requote",
      "requote",
      "shutdown",
      "shutdown",
      "quoting_disabled",
      "quoting_disabled",
    ]);
    expect(await r.counted()).toEqual({ requote: 2, shutdown: 2, quoting_disabled: 2 });
    expect(r.journaled("cancel")).toEqual(["requote", "requote", "quoting_disabled", "quoting_disabled"]);
    expect(r.journaled("cancel_all")).toEqual(["shutdown", "shutdown"]);
  });

  it("orphan: an order of the wallet that is not ours, found by the periodic reconcile", async () => {
    const r = newRig();
    const [yes] = r.h.tokens();
    r.h.crowdQuote(yes, "0.48", "0.52");
    await r.h.engine.start();
    await r.h.run();
    const stray = r.h.leftover(yes, "buy", "0.30"); // placed by another process, no clientOrderId
    await r.h.run(31_000);
    expect(r.h.botOrders().map((o) => o.id)).not.toContain(stray);
    expect(r.requested()).toEqual(["orphan"]);
    expect(await r.counted()).toEqual({ orphan: 1 });
    expect(r.journaled("cancel")).toEqual(["orphan"]);
  });
});

describe("cancel reasons of adopted orders", () => {
  it("duplicate: two earlier orders adopted on one level, the second cancelled", async () => {
    const r = newRig({ options: { startupPolicy: "adopt" } });
    const [yes] = r.h.tokens();
    r.h.crowdQuote(yes, "0.48", "0.52");
    // Both at the desired bid, both naming bid level 0 in their clientOrderId.
    r.h.leftover(yes, "buy", "0.47", oldClientOrderId(yes, "buy", 1));
    r.h.leftover(yes, "buy", "0.47", oldClientOrderId(yes, "buy", 2));
    await r.h.engine.start();
    await r.h.run();
    expect(r.h.botQuotes(yes).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);
    expect(r.requested()).toEqual(["duplicate"]);
    expect(await r.counted()).toEqual({ duplicate: 1 });
    expect(r.journaled("cancel")).toEqual(["duplicate"]);
  });

  it("no_strategy: an earlier order adopted on a token quoted without a strategy", async () => {
    const r = newRig({ options: { startupPolicy: "adopt" }, unquoted: ["12"] });
    const [yes, no] = r.h.tokens();
    r.h.crowdQuote(yes, "0.48", "0.52");
    r.h.crowdQuote(no, "0.48", "0.52");
    r.h.leftover(no, "sell", "0.60", oldClientOrderId(no, "sell", 1));
    await r.h.engine.start();
    await r.h.run();
    expect(r.h.botQuotes(no)).toEqual([]);
    expect(r.requested()).toEqual(["no_strategy"]);
    expect(await r.counted()).toEqual({ no_strategy: 1 });
    expect(r.journaled("cancel")).toEqual(["no_strategy"]);
  });
});

/**
 * A rig quoting token 1's yes by A–S (it reads the clock: the timer steps it) against a crowd at
 * 0.40/0.60, its wallet left 0.5 USDC: it cannot fund its 10-share bid. Not started.
 */
function shortOfFunds(o: HarnessOptions = {}): { r: CancelReasonsRig; yes: string } {
  const r = newRig({
    configured: parseStrategyConfig({
      name: "avellaneda-stoikov",
      params: { gamma: 2, k: 1000, orderSize: "10", sigma: Math.sqrt(0.0033) },
    }),
    closesAt: () => T0 + 120_000,
    options: { requoteIntervalMs: 1_000 },
    ...o,
  });
  const [yes] = r.h.tokens();
  r.h.crowdQuote(yes, "0.40", "0.60");
  const { available } = r.h.venue.balances(BOT).usdc;
  r.h.venue.debit(BOT, USDC, available - toWei("0.5", "usdc"));
  return { r, yes };
}

describe("mm_quote_levels_backed_off", () => {
  it("counts a bid level the refusal back-off holds empty, and drops to 0 once it is accepted", async () => {
    const { r, yes } = shortOfFunds();
    await r.h.engine.start();
    await r.h.run(5_000);
    expect(r.h.eventsOf("place_outcome").some((e) => e.code === "insufficient_funds")).toBe(true);
    expect(r.h.engine.status().backedOffLevels).toEqual(new Map([[yes, 1]]));
    expect(await r.scraped("mm_quote_levels_backed_off")).toBe(1);
    r.h.venue.credit(BOT, USDC, toWei("1000", "usdc"));
    await r.h.run(31_000); // the back-off's next step (≤ 30 s) places it, accepted now
    expect(r.h.botOrders(yes).some((o) => o.side === "buy")).toBe(true);
    expect(r.h.engine.status().backedOffLevels).toEqual(new Map());
    expect(await r.scraped("mm_quote_levels_backed_off")).toBe(0);
  });

  it("counts no level for a placement refused after the stop began", async () => {
    // Review 22: RequoteTimer.refused ignored the stop, so a refusal answered after it started a
    // run of its own, counted until a later step of the stopped engine (if one came: here the
    // answer to the stop's cancel-all, 5 ms on).
    const { r } = shortOfFunds({ latencyMs: 50 });
    const starting = r.h.engine.start();
    const sentBids = () => r.h.eventsOf("place_sent").filter((e) => e.order?.side === "buy").length;
    const refusals = () =>
      r.h.eventsOf("place_outcome").filter((e) => e.code === "insufficient_funds").length;
    // The first bid is refused as the ask is accepted; that answer's step sends the bid again (its
    // step read the clock: the refusal would start a back-off run), and the stop comes while it is
    // on its way, its cancel-alls answered just after the bid's refusal.
    for (let i = 0; i < 200 && sentBids() < 2; i++) await r.h.run(10);
    await starting;
    await r.h.run(5);
    expect([sentBids(), refusals()]).toEqual([2, 1]);
    const stopping = r.h.engine.stop("SIGTERM", 5_000);
    for (let i = 0; i < 200 && refusals() < 2; i++) await r.h.run(1);
    expect(refusals()).toBe(2); // the bid, sent before the stop, refused after it
    expect(r.h.engine.status().backedOffLevels).toEqual(new Map());
    expect(await r.scraped("mm_quote_levels_backed_off")).toBe(0);
    await r.h.run(5_000);
    expect(await stopping).toEqual({ openOrders: 0 });
  });
});
