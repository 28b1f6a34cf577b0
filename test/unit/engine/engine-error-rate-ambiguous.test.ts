import { describe, expect, it } from "vitest";
import { ExchangeError } from "../../../src/exchange/exchange-error.js";
import { Harness } from "./support/harness.js";

/*
 * An ambiguous answer (a timeout, a 500, 502 or 504) never counted towards the error-rate halt. An
 * exchange answering 500 to every cancel while it took every placement let the bot go on quoting
 * while none of the quotes it replaced came off: each requote left one more stale order resting.
 * Ambiguous answers to a placement, a cancel or a cancel-all now count, once per request, and the
 * halt stops the placements while the cancels and the reconciles that clear the ambiguity go on.
 */

/** Trips on the fourth counted error. */
const risk = { errorRate: { maxErrors: 3, windowMs: 30_000, coolDownMs: 60_000, ignoreCodes: [] } };

const halted = (h: Harness) => h.logs.records().some((r) => r.msg === "risk: error_rate_halt");

function ambiguous(endpoint: string): ExchangeError {
  return new ExchangeError({
    code: "internal_error",
    message: "internal error",
    outcome: "ambiguous",
    endpoint,
    httpStatus: 500,
  });
}

/** Cancels and cancel-alls are answered 500 (the exchange did nothing) while `broken()` says so. */
function breakCancels(h: Harness, broken: () => boolean): void {
  const { cancel, cancelAll } = h.exchange;
  h.exchange.cancel = async (orderId) => {
    if (!broken()) return cancel.call(h.exchange, orderId);
    h.exchange.calls.push({ op: "cancel", atMs: h.clock.now(), arg: orderId });
    throw ambiguous("POST /api/orders/cancel");
  };
  h.exchange.cancelAll = async (marketId) => {
    if (!broken()) return cancelAll.call(h.exchange, marketId);
    h.exchange.calls.push({ op: "cancel_all", atMs: h.clock.now(), arg: marketId ?? "*" });
    throw ambiguous("POST /api/orders/cancel-all");
  };
}

describe("engine: ambiguous answers count towards the error-rate halt", () => {
  it("a storm of 500s on every cancel trips the halt; cancels go on, placements stop, quotes come off once it ends", async () => {
    const h = new Harness({ risk });
    const [a] = h.tokens();
    h.crowdQuote(a, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    expect(h.botQuotes(a)).toHaveLength(2);
    let broken = true;
    breakCancels(h, () => broken);
    // The market moves: the requote cancels what it replaces, in vain, and the reconciles that find
    // those orders still open have them cancelled again, in vain too.
    h.crowdQuote(a, "0.46", "0.50");
    await h.run(300);
    expect(halted(h)).toBe(true);
    const haltAt = h.clock.now();
    // The quotes it could not pull and their replacements; without the halt every later move of the
    // market added two more (and the crowd crossing the stale ones filled them).
    expect(h.botQuotes(a).sort()).toEqual(["buy 0.45 10", "buy 0.47 10", "sell 0.51 10", "sell 0.53 10"]);
    await h.run(5_000);
    // Halted: nothing placed, but the cancels (and the reconciles finding the orders still open) go on.
    expect(h.exchange.of("place").filter((c) => c.atMs >= haltAt)).toEqual([]);
    expect(h.exchange.of("cancel").filter((c) => c.atMs >= haltAt).length).toBeGreaterThan(0);
    broken = false;
    await h.run(5_000);
    expect(h.botOrders()).toEqual([]); // every stale quote pulled while still halted
  });

  it("below the halt, a level whose cancel is in doubt gains no quote per requote, and is requoted once the cancel lands", async () => {
    const h = new Harness({ risk: { errorRate: { ...risk.errorRate, maxErrors: 1_000 } } });
    const [a] = h.tokens();
    h.crowdQuote(a, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    let broken = true;
    breakCancels(h, () => broken);
    // The market moves three times (never through a stale quote) while no cancel can be confirmed.
    // The first requote's replacements left with its cancels, before any doubt; after that each
    // level waits. Before, every move added two more quotes.
    for (const [bid, ask] of [
      ["0.46", "0.50"],
      ["0.47", "0.51"],
      ["0.45", "0.49"],
    ] as const) {
      h.crowdQuote(a, bid, ask);
      await h.run(2_000);
    }
    expect(halted(h)).toBe(false);
    expect(h.botQuotes(a).sort()).toEqual(["buy 0.45 10", "buy 0.47 10", "sell 0.51 10", "sell 0.53 10"]);
    // Cancels work again: the doubtful quotes come off, then (cancel-then-place) the level is
    // quoted where the market is now, with nothing else moving.
    broken = false;
    await h.run(5_000);
    expect(h.botQuotes(a).sort()).toEqual(["buy 0.44 10", "sell 0.5 10"]);
  });

  it("one ambiguous cancel is one error: a single 500 trips nothing", async () => {
    const h = new Harness({ risk: { errorRate: { ...risk.errorRate, maxErrors: 1 } } });
    const [a] = h.tokens();
    h.crowdQuote(a, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    let answered = 0;
    breakCancels(h, () => answered++ === 0);
    h.crowdQuote(a, "0.46", "0.50");
    await h.run(2_000);
    expect(h.eventsOf("cancel_outcome").filter((e) => e.outcome === "ambiguous")).toHaveLength(1);
    expect(halted(h)).toBe(false);
    expect(h.botQuotes(a).sort()).toEqual(["buy 0.45 10", "sell 0.51 10"].sort());
  });

  it("ambiguous placements count too", async () => {
    const h = new Harness({ risk: { errorRate: { ...risk.errorRate, windowMs: 60_000 } } });
    const [a] = h.tokens();
    h.crowdQuote(a, "0.48", "0.52");
    h.exchange.scriptPlace(
      { kind: "ambiguous_before" },
      { kind: "ambiguous_before" },
      { kind: "ambiguous_before" },
      { kind: "ambiguous_before" },
    );
    await h.engine.start();
    await h.run(40_000); // past unknownGraceMs: the levels are quoted again, and answered ambiguously again
    expect(h.eventsOf("place_outcome").filter((e) => e.outcome === "ambiguous")).toHaveLength(4);
    expect(halted(h)).toBe(true);
  });

  it("orphan cancels count: one refused, one answered 500, trip a halt of maxErrors 1", async () => {
    const h = new Harness({ risk: { errorRate: { ...risk.errorRate, maxErrors: 1 } } });
    const [a] = h.tokens();
    h.crowdQuote(a, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    // Two orders of the wallet the bot does not know (placed by hand, or by a run it cannot tell).
    const strays = [h.leftover(a, "buy", "0.40"), h.leftover(a, "sell", "0.60")];
    let n = 0;
    h.exchange.cancel = async (orderId) => {
      h.exchange.calls.push({ op: "cancel", atMs: h.clock.now(), arg: orderId });
      if (n++ === 0) {
        throw new ExchangeError({
          code: "invalid_request",
          message: "refused",
          outcome: "rejected",
          endpoint: "POST /api/orders/cancel",
          httpStatus: 400,
        });
      }
      throw ambiguous("POST /api/orders/cancel");
    };
    await h.engine.reconcileNow();
    await h.run(100);
    const cancels = h.exchange.of("cancel").map((c) => c.arg);
    expect(cancels.slice(0, 2).sort()).toEqual([...strays].sort());
    expect(halted(h)).toBe(true);
  });
});
