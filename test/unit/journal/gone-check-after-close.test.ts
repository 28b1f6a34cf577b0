import { describe, expect, it } from "vitest";
import { openDaemonJournal } from "../../../src/app/journal.js";
import { SimClock } from "../../../src/core/sim-clock.js";
import type { Order } from "../../../src/exchange/types.js";
import type { OrderReads } from "../../../src/journal/gone-orders.js";
import { createLogger } from "../../../src/observability/logger.js";
import { collectingStream } from "../../support/collecting-stream.js";
import { ACCOUNT, exchangeOrder, killedJournal as killedJournalOf } from "./support.js";

const NOW = Date.UTC(2025, 6, 1);

const killedJournal = (n: number) => killedJournalOf(n, NOW - 60_000);
const expired = (id: string) => exchangeOrder(id, "EXPIRED");

/** The exchange as the daemon's (closed) HTTP client still serves it: every read answers; the first order read is held. */
class CountingExchange implements OrderReads {
  readonly reads: string[] = [];
  release: () => void = () => undefined;
  readonly #held = new Promise<void>((r) => {
    this.release = r;
  });
  async openOrders(): Promise<Order[]> {
    return [];
  }
  async order(id: string): Promise<Order> {
    this.reads.push(id);
    if (this.reads.length === 1) await this.#held;
    return expired(id);
  }
}

describe("review(engine): the background gone-orders check after the daemon stopped", () => {
  it("sends no more GET /api/orders/{id} once the journal has closed (the daemon stopped)", async () => {
    const path = killedJournal(5);
    const j = openDaemonJournal(
      { path, snapshotIntervalMs: 0, sync: "normal" },
      {
        account: ACCOUNT,
        session: "next",
        tokens: [],
        clock: new SimClock(NOW),
        logger: createLogger({ level: "info", pretty: false, destination: collectingStream() }),
      },
    );
    expect(j.restore.orders.size).toBe(5);
    const ex = new CountingExchange();
    const checked = j.closeGoneOrders(ex);
    await new Promise((r) => setTimeout(r, 0));
    expect(ex.reads).toEqual(["o1"]); // the first read is out
    // The daemon stops: DaemonRun closes the journal (and the HTTP client, whose node:http Agent
    // still opens new connections after destroy(), so later reads really leave).
    j.close();
    ex.release();
    expect(await checked).toBe(0);
    // Nothing read after the stop can be journaled any more: the reads should end with the run.
    expect(ex.reads).toEqual(["o1"]);
  });
});
