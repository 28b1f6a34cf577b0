import { describe, expect, it } from "vitest";
import { ExchangeError } from "../../../src/exchange/exchange-error.js";
import type { PlaceOrderOutcome } from "../../../src/exchange/place-outcome.js";
import { settle } from "../engine/support/harness.js";
import { journaledHarness } from "./support-running.js";

/*
 * review18 r2-exec. The usual ambiguous placement that reached the book is a timeout: the order
 * crossed, its user_fill arrived over the WebSocket, and only then was the HTTP answer lost. The fill
 * binds the order while it is still `placing`, so the fill-answer (ws-settled-answers.test.ts, for a
 * fill after the ambiguous answer) does not fire; the ambiguous answer changes nothing (filled stays
 * filled); no search looks for an order with an id; and once filled whole, no reconcile holds it
 * live. It stayed unanswered in the journal for the whole run, and the next start searched for it.
 */
function ambiguousOutcome(): PlaceOrderOutcome {
  const error = new ExchangeError({
    code: "request_timeout",
    message: "no answer within the timeout",
    outcome: "ambiguous",
    endpoint: "POST /api/orders/place",
  });
  return { kind: "ambiguous", error };
}

/**
 * Runs an engine with a journal whose next placement is taken (`extra` shares beyond its quantity:
 * 0 fills it whole, a negative number leaves that many resting), its user_fill delivered, before its
 * HTTP answer is lost.
 */
async function filledThenLost(extra: number) {
  const { h, db, restoreNow } = journaledHarness();
  const [yes] = h.tokens();
  h.crowdQuote(yes, "0.48", "0.52");
  await h.engine.start();
  await h.run();

  const real = h.exchange.place.bind(h.exchange);
  let target: string | undefined;
  h.exchange.place = async (req) => {
    if (target !== undefined) return real(req);
    target = req.clientOrderId;
    const out = await real(req);
    if (out.kind !== "accepted") throw new Error(`placement not accepted: ${out.kind}`);
    // The crowd's 100 shares quoted better than ours are taken first.
    h.take(yes, req.side === "buy" ? "sell" : "buy", req.price, String(100 + Number(req.quantity) + extra));
    await settle(); // the user_fill reaches the engine (a microtask)
    return ambiguousOutcome();
  };
  h.crowdQuote(yes, "0.50", "0.54");
  await h.run();
  const cid = target ?? "";
  expect(cid).not.toBe("");
  const fill = h.eventsOf("fill").find((e) => e.fill.clientOrderId === cid);
  expect(fill?.source).toBe("stream");
  expect(h.eventsOf("place_outcome").find((e) => e.intent.clientOrderId === cid)?.outcome).toBe("ambiguous");
  return { h, db, cid, orderId: fill?.fill.orderId, restoreNow };
}

describe("journal: a placement filled over the WebSocket before its answer timed out", () => {
  it("filled whole: journaled accepted and closed FILLED as its ambiguous answer comes, so a restart does not search for it", async () => {
    const { h, db, cid, orderId, restoreNow } = await filledThenLost(0);
    expect(h.eventsOf("placements_answered").flatMap((e) => e.placements)).toMatchObject([
      { clientOrderId: cid, orderId, status: "FILLED", givenUp: false },
    ]);
    await h.run(5_000); // reconciles come and go
    const next = restoreNow();
    // Before: only the `ambiguous` row was journaled, so the next start searched for it.
    expect(next.unanswered.has(cid)).toBe(false);
    expect([...next.orders.values()]).not.toContain(cid); // closed: it may not rest
    const rows = db
      .prepare(
        "SELECT outcome, order_id AS orderId FROM outcomes WHERE client_order_id = ? AND op = 'place' ORDER BY id",
      )
      .all(cid);
    expect(rows).toEqual([
      { outcome: "ambiguous", orderId: null },
      { outcome: "accepted", orderId },
    ]);
    db.close();
  });

  it("partly filled: journaled accepted, not closed, so a restart looks it up as an order that may rest", async () => {
    const { h, db, cid, orderId, restoreNow } = await filledThenLost(-1);
    expect(h.eventsOf("placements_answered").flatMap((e) => e.placements)).toMatchObject([
      { clientOrderId: cid, orderId, status: undefined, givenUp: false },
    ]);
    const next = restoreNow();
    expect(next.unanswered.has(cid)).toBe(false);
    expect(next.orders.get(orderId ?? "")).toBe(cid);
    db.close();
  });
});
