import { describe, expect, it } from "vitest";
import type { Order } from "../../../src/exchange/types.js";
import { Harness } from "./support/harness.js";

/*
 * ops8 acceptance pass: a SIGTERM while a periodic reconcile waited on its read logged
 * `reconcile failed` at warn, with a full stack, 1 ms after the daemon said it had stopped: the stop
 * closes the client under the read. A reconcile the stop cut short is expected; it goes to debug.
 */
describe("a reconcile cut short by the engine's stop", () => {
  it("is logged at debug, not as a warning", async () => {
    const h = new Harness({ options: { reconcileIntervalMs: 1_000 } });
    await h.engine.start();
    await h.run(100);
    const read = h.exchange.openOrders.bind(h.exchange);
    let cut: (e: Error) => void = () => {};
    h.exchange.openOrders = () =>
      new Promise<Order[]>((_, reject) => {
        cut = reject;
      });
    await h.run(1_500); // the periodic run now waits on its read
    h.exchange.openOrders = read;
    const stopped = h.engine.stop("test", 5_000);
    cut(new Error("the client closed"));
    await h.run(6_000);
    await stopped;
    const failed = h.logs.records().filter((r) => r.msg === "reconcile failed");
    expect(failed.map((r) => Number(r.level))).toEqual([20]);
    expect(h.eventsOf("reconcile_failed")).toHaveLength(1);
  });
});
