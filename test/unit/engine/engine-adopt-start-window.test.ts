import { describe, expect, it } from "vitest";
import { Harness, oldClientOrderId } from "./support/harness.js";

describe("engine start-up, policy adopt: a book update before quoting starts", () => {
  it("keeps the adopted orders it wants: a step before the start does not cancel them (quoting_disabled)", async () => {
    const h = new Harness({ options: { startupPolicy: "adopt" }, platformStatus: true });
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    const bid = h.leftover(yes, "buy", "0.47", oldClientOrderId(yes, "buy", 1)); // the desired bid
    const ask = h.leftover(yes, "sell", "0.53", oldClientOrderId(yes, "sell", 2)); // the desired ask
    // The start's read of the platform status comes after the start-up reconcile adopted them; the
    // crowd's book moves meanwhile (a live market's book updates arrive all the time).
    const read = h.exchange.platformFrozen;
    h.exchange.platformFrozen = async () => {
      h.crowdOrder(yes, "buy", "0.40", "5");
      await Promise.resolve(); // the step the book update asked for runs (a microtask)
      return read?.();
    };
    await h.engine.start();
    await h.run();
    expect(h.eventsOf("started")[0]).toMatchObject({ adopted: 2 });
    expect(h.exchange.of("cancel")).toEqual([]);
    expect(
      h
        .botOrders(yes)
        .map((o) => o.id)
        .sort(),
    ).toEqual([bid, ask].sort());
    expect(h.exchange.of("place")).toEqual([]);
  });
});
