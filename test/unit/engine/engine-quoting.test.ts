import { describe, expect, it } from "vitest";
import { Harness } from "./support/harness.js";

describe("engine quoting: book → strategy → risk → order manager → queue → venue", () => {
  it("places nothing before the first quotable book, then quotes within the same tick", async () => {
    const h = new Harness();
    const [yes, no] = h.tokens();
    await h.engine.start();
    await h.run();
    expect(h.botQuotes()).toEqual([]); // books synced but empty: no data, no quote
    const t = h.clock.now();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.run();
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);
    expect(h.botQuotes(no)).toEqual([]);
    const sent = h.eventsOf("place_sent");
    expect(sent.map((e) => e.atMs)).toEqual([t, t]); // no clock time passes between the book and the send
    expect(h.engine.status()).toMatchObject({
      started: true,
      reconciled: true,
      quotingTokens: 1,
      openOrders: 2,
    });
  });

  it("requotes (cancel + place) when the mid moves by a tick or more", async () => {
    const h = new Harness();
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    const before = h.botOrders(yes).map((o) => o.id);
    expect(before).toHaveLength(2);
    const calls = h.exchange.calls.length;
    h.crowdQuote(yes, "0.49", "0.53"); // mid 0.50 → 0.51
    await h.run();
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.48 10", "sell 0.54 10"]);
    const after = h.exchange.calls.slice(calls);
    expect(
      after
        .filter((c) => c.op === "cancel")
        .map((c) => c.arg)
        .sort(),
    ).toEqual([...before].sort());
    expect(after.filter((c) => c.op === "place")).toHaveLength(2);
  });

  it("converges when the market jumps past its own quote (the book includes our orders)", async () => {
    const h = new Harness();
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    h.crowdQuote(yes, "0.50", "0.54"); // our ask 0.53 is now the touch: mid 0.515 first, 0.52 once it moves
    await h.run();
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.49 10", "sell 0.55 10"]);
    expect(h.engine.liveOrders()).toHaveLength(2);
  });

  it("leaves quotes alone when the desired price moves less than the tolerance", async () => {
    const h = new Harness({ options: { tolerance: { priceTicks: 2, sizeFraction: 0.1 } } });
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    const calls = h.exchange.calls.length;
    h.crowdQuote(yes, "0.49", "0.52"); // mid 0.505: desired 0.47 / 0.54, the ask one tick off
    await h.run();
    expect(h.exchange.calls.slice(calls).filter((c) => c.op !== "open_orders")).toEqual([]);
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);
    h.crowdQuote(yes, "0.50", "0.52"); // mid 0.51: desired 0.48 / 0.54 — the bid is a tick off, the ask
    await h.run(); // still one tick: nothing; a two-tick move requotes
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);
    h.crowdQuote(yes, "0.51", "0.53"); // mid 0.52: desired 0.49 / 0.55, two ticks
    await h.run();
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.49 10", "sell 0.55 10"]);
  });

  it("coalesces a burst of book frames into one quoting step per token", async () => {
    const h = new Harness();
    const [yes] = h.tokens();
    await h.engine.start();
    await h.run();
    for (const [b, a] of [
      ["0.40", "0.60"],
      ["0.45", "0.55"],
      ["0.48", "0.52"],
    ] as const)
      h.crowdQuote(yes, b, a);
    await h.run();
    expect(h.eventsOf("quote").filter((e) => e.tokenId === yes)).toHaveLength(1);
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);
  });
});
