import { describe, expect, it } from "vitest";
import { openDaemonJournal } from "../../../src/app/journal.js";
import { SimClock } from "../../../src/core/sim-clock.js";
import type { Order } from "../../../src/exchange/types.js";
import type { OrderReads } from "../../../src/journal/gone-orders.js";
import { createLogger } from "../../../src/observability/logger.js";
import { type CollectingStream, collectingStream } from "../../support/collecting-stream.js";
import { ACCOUNT, exchangeOrder, killedJournal as killedJournalOf } from "./support.js";

const NOW = Date.UTC(2025, 6, 1);

/** A journal whose only run was killed with placements o1 and o2 accepted. */
const killedJournal = () => killedJournalOf(2, NOW - 60_000);

/** Reads the exchange answers only once `release` is called (a check caught mid-way). */
class HeldExchange implements OrderReads {
  release: () => void = () => undefined;
  readonly #held = new Promise<void>((r) => {
    this.release = r;
  });
  constructor(readonly failOpen = false) {}
  async openOrders(): Promise<Order[]> {
    await this.#held;
    if (this.failOpen) throw new Error("connection reset");
    return [];
  }
  async order(id: string): Promise<Order> {
    return exchangeOrder(id, "EXPIRED");
  }
}

function open(path: string, sink: CollectingStream = collectingStream()) {
  return openDaemonJournal(
    { path, snapshotIntervalMs: 0, sync: "normal" },
    {
      account: ACCOUNT,
      session: "next",
      tokens: [],
      clock: new SimClock(NOW),
      logger: createLogger({ level: "info", pretty: false, destination: sink }),
    },
  );
}

const restoredOrders = (path: string) => {
  const j = open(path);
  const orders = j.restore.orders;
  j.close();
  return orders;
};

describe("the daemon's journal closes restored orders found gone", () => {
  it("journals them closed once checked, so the next start restores none", async () => {
    const path = killedJournal();
    const sink = collectingStream();
    const j = open(path, sink);
    expect(j.restore.orders.size).toBe(2);
    const ex = new HeldExchange();
    const checked = j.closeGoneOrders(ex);
    expect(j.closeGoneOrders(ex)).toBe(checked); // one check per run
    ex.release();
    expect(await checked).toBe(2);
    expect(await j.goneClosed).toBe(2);
    j.close();
    expect(sink.text()).toContain(
      "2 order(s) of earlier runs no longer open on the exchange, journaled closed",
    );
    expect(restoredOrders(path)).toEqual(new Map());
  });

  it("writes nothing when the run stops during the check, nor when the open orders cannot be read", async () => {
    const path = killedJournal();
    const j = open(path);
    const ex = new HeldExchange();
    const checked = j.closeGoneOrders(ex);
    j.close(); // the run stopped while the reads were out
    ex.release();
    expect(await checked).toBe(0);
    expect(restoredOrders(path).size).toBe(2);

    const sink = collectingStream();
    const k = open(path, sink);
    const failing = new HeldExchange(true);
    const again = k.closeGoneOrders(failing);
    failing.release();
    expect(await again).toBe(0);
    k.close();
    expect(sink.text()).toContain("could not read the open orders");
    expect(restoredOrders(path).size).toBe(2);
  });

  it("settles goneClosed with 0 at close when no check ran (a start that failed)", async () => {
    const j = open(killedJournal());
    j.close();
    expect(await j.goneClosed).toBe(0);
  });
});
