import { describe, expect, it } from "vitest";
import { Harness, oldClientOrderId } from "./support/harness.js";

describe("engine start-up: pre-existing orders of the wallet", () => {
  it("policy cancel: one wallet cancel-all before any placement leaves none of them", async () => {
    const h = new Harness();
    const [yes, no] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    const old = [
      h.leftover(yes, "buy", "0.40", oldClientOrderId(yes, "buy", 1)),
      h.leftover(no, "sell", "0.70"),
    ];
    await h.engine.start();
    await h.run();
    const ops = h.exchange.calls.map((c) => c.op);
    expect(ops.indexOf("cancel_all")).toBeLessThan(ops.indexOf("place"));
    expect(h.exchange.of("cancel_all").map((c) => c.arg)).toEqual(["*"]);
    const open = h.botOrders().map((o) => o.id);
    for (const id of old) expect(open).not.toContain(id);
    expect(h.botQuotes().sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);
    expect(h.eventsOf("started")[0]).toMatchObject({ cancelledAtStart: 2, adopted: 0 });
  });

  it("policy adopt: keeps the orders it wants, cancel-replaces the others", async () => {
    const h = new Harness({ options: { startupPolicy: "adopt" } });
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    const keep = h.leftover(yes, "buy", "0.47", oldClientOrderId(yes, "buy", 1)); // exactly the desired bid
    const stale = h.leftover(yes, "sell", "0.60", oldClientOrderId(yes, "sell", 2)); // the ask, mispriced
    const foreign = h.leftover(yes, "buy", "0.30"); // no clientOrderId: adopted at level 1, not desired
    await h.engine.start();
    await h.run();
    expect(h.eventsOf("started")[0]).toMatchObject({ adopted: 3, cancelledAtStart: 0 });
    expect(h.exchange.of("cancel_all")).toEqual([]);
    const open = h.botOrders(yes);
    expect(open.map((o) => o.id)).toContain(keep);
    expect(open.map((o) => o.id)).not.toContain(stale);
    expect(open.map((o) => o.id)).not.toContain(foreign);
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);
    expect(h.exchange.of("place").map((c) => c.arg.split(" ").slice(1).join(" "))).toEqual(["sell 0.53 10"]);
  });
});

describe("engine outcomes: an ambiguous placement is never resent", () => {
  it("answered ambiguously but resting on the venue: found by the triggered reconcile", async () => {
    const h = new Harness({ options: { reconcileDebounceMs: 250 } });
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    h.exchange.scriptPlace({ kind: "ambiguous_after" });
    await h.engine.start();
    await h.run();
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);
    expect(
      h.engine
        .liveOrders()
        .map((o) => o.state)
        .sort(),
    ).toEqual(["open", "unknown"]);
    h.crowdQuote(yes, "0.48", "0.53"); // book updates before the reconcile: the unknown level stays blocked
    await h.run(100);
    const bids = h.exchange.of("place").filter((c) => c.arg.includes(" buy "));
    expect(bids).toHaveLength(1);
    await h.run(200); // the debounced reconcile
    expect(h.eventsOf("reconcile").map((e) => e.summary.reason)).toContain("ambiguous");
    expect(h.engine.liveOrders().every((o) => o.state === "open")).toBe(true);
    const found = h.botOrders(yes).filter((o) => o.side === "buy");
    expect(found).toHaveLength(1);
    h.crowdQuote(yes, "0.50", "0.54"); // now it is requoted like any order (cancelled by its learned id)
    await h.run();
    expect(h.exchange.of("cancel").map((c) => c.arg)).toContain(found[0]?.id);
    expect(
      h
        .botOrders(yes)
        .filter((o) => o.side === "buy")
        .map((o) => o.price),
    ).toEqual([490_000n]);
  });

  it("lost before reaching the venue: taken as never placed after the grace, then quoted afresh", async () => {
    const h = new Harness({ options: { unknownGraceMs: 5_000, reconcileRetryMs: 1_000 } });
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    h.exchange.scriptPlace({ kind: "ambiguous_before" });
    await h.engine.start();
    await h.run(1_000);
    expect(h.botQuotes(yes)).toEqual(["sell 0.53 10"]);
    await h.run(6_000);
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);
    const bids = h.exchange.of("place").filter((c) => c.arg.includes(" buy "));
    expect(bids).toHaveLength(2);
    expect(bids[0]?.arg.split(" ")[0]).not.toBe(bids[1]?.arg.split(" ")[0]); // a new clientOrderId
  });
});

describe("engine stop", () => {
  it("leaves zero open orders on the venue, with placements in flight", async () => {
    const h = new Harness({ markets: 3, latencyMs: 20 });
    for (let i = 1; i <= 3; i++) h.crowdQuote(h.tokens(i)[0], "0.48", "0.52");
    const starting = h.engine.start();
    await h.run(500);
    await starting;
    expect(h.botOrders()).toHaveLength(6);
    h.crowdQuote(h.tokens(1)[0], "0.50", "0.54"); // requotes in flight when the stop comes
    await h.run(5);
    const stopping = h.engine.stop("sigterm", 5_000);
    await h.run(5_000);
    expect(await stopping).toEqual({ openOrders: 0 });
    expect(h.botOrders()).toEqual([]);
    expect(h.engine.status()).toMatchObject({ openOrders: 0 });
    expect(h.eventsOf("stopped")[0]).toMatchObject({ reason: "sigterm", openOrders: 0 });
    const from = h.exchange.calls.length;
    h.crowdQuote(h.tokens(2)[0], "0.40", "0.60");
    await h.run(1_000);
    expect(h.exchange.calls.slice(from).filter((c) => c.op === "place")).toEqual([]);
  });

  it("resolves by its deadline on the Clock when the exchange does not answer", async () => {
    const h = new Harness({ latencyMs: 1 });
    h.crowdQuote(h.tokens()[0], "0.48", "0.52");
    const starting = h.engine.start();
    await h.run(100);
    await starting;
    const stopping = h.engine.stop("sigterm", 0);
    await h.run(10);
    const r = await stopping;
    expect(r.openOrders).toBe(2); // nothing could be confirmed in time: what the engine believes live
  });
});
