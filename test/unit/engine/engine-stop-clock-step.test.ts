import { describe, expect, it } from "vitest";
import { ExchangeError } from "../../../src/exchange/exchange-error.js";
import { type Harness, settle } from "./support/harness.js";
import { steppedStarted } from "./support/stepped-harness.js";

const MINUTE = 60_000;

/** The exchange stops answering: cancels and reads hang (a dead connection, no answer ever). */
function hang(h: Harness): void {
  const never = <T>(): Promise<T> => new Promise<T>(() => undefined);
  h.exchange.cancel = () => never();
  h.exchange.cancelAll = () => never();
  h.exchange.openOrders = () => never();
}

/**
 * engine.stop(reason, timeoutMs) bounds the whole shutdown by timeoutMs. The daemon's clock is the
 * wall clock (Date.now()), which NTP or a VM resume can step while the stop runs; the stop's bound is
 * elapsed time, so a step must neither stretch it (a step back: `mm run` would overrun its
 * shutdown budget and be force-exited instead of closing its sockets and journal) nor cut it short
 * (a step forward: the final open-orders check and cancel would be skipped).
 */
describe("engine stop across a wall-clock step", () => {
  it("a 10-min step back while the stop waits on a silent exchange does not stretch it", async () => {
    const { h, wall } = await steppedStarted();
    hang(h);
    let settled = false;
    const stopping = h.engine.stop("sigterm", 5_000).then((r) => {
      settled = true;
      return r;
    });
    await h.run(1_000);
    wall.stepMs = -10 * MINUTE;
    await h.run(4_010);
    await settle();
    expect(settled).toBe(true);
    expect(await stopping).toEqual({ openOrders: 2, believed: true }); // nothing confirmed: what the engine believes live
  });

  it("a 10-min step back just before the deadline does not stretch it either", async () => {
    const { h, wall } = await steppedStarted();
    hang(h);
    let settled = false;
    const stopping = h.engine.stop("sigterm", 5_000).then((r) => {
      settled = true;
      return r;
    });
    await h.run(4_990);
    wall.stepMs = -10 * MINUTE;
    await h.run(20);
    expect(settled).toBe(true);
    expect((await stopping).openOrders).toBe(2);
  });

  it("a 10-min step forward at the start of the stop does not skip its final check and cancels", async () => {
    const { h, wall, yes } = await steppedStarted();
    // The bid of the next quote reaches the venue but its answer is lost (`unknown` in the engine),
    // and cancel-all is refused (501): only the final GET /api/orders/open finds that bid, and only
    // a single cancel of it, from that list, takes it off the book.
    h.exchange.cancelAll = async () => {
      throw new ExchangeError({
        code: "not_implemented",
        message: "Feature disabled",
        outcome: "rejected",
        endpoint: "POST /api/orders/cancel-all",
        httpStatus: 501,
      });
    };
    h.exchange.scriptPlace({ kind: "ambiguous_after" });
    h.crowdQuote(yes, "0.50", "0.54");
    await h.run(10);
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.49 10", "sell 0.55 10"]);
    const stopping = h.engine.stop("sigterm", 5_000);
    wall.stepMs = 10 * MINUTE;
    await h.run(5_000);
    expect(await stopping).toEqual({ openOrders: 0 });
    expect(h.botQuotes(yes)).toEqual([]);
  });
});
