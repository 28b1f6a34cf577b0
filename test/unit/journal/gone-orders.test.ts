import { describe, expect, it } from "vitest";
import { ExchangeError } from "../../../src/exchange/exchange-error.js";
import type { Order } from "../../../src/exchange/types.js";
import {
  findGoneOrders,
  GONE_READS_MAX,
  journalGoneOrders,
  NOT_FOUND_STATUS,
  type OrderReads,
} from "../../../src/journal/gone-orders.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { JournalPruner } from "../../../src/journal/prune.js";
import { buildReport } from "../../../src/journal/report.js";
import { readRestore } from "../../../src/journal/restore.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import { ACCOUNT, exchangeOrder, fill, journalPath, placed } from "./support.js";

const order = exchangeOrder;

const failure = (code: string, outcome: "rejected" | "retryable") =>
  new ExchangeError({ code, message: code, outcome, endpoint: "GET /api/orders/{id}" });

/** An exchange holding `open` open and answering each read from `records` (absent: 404). */
class FakeExchange implements OrderReads {
  readonly reads: string[] = [];
  constructor(
    readonly open: readonly string[],
    readonly records: ReadonlyMap<string, Order | Error>,
  ) {}
  async openOrders(): Promise<Order[]> {
    return this.open.map((id) => order(id, "OPEN"));
  }
  async order(id: string): Promise<Order> {
    this.reads.push(id);
    const r = this.records.get(id);
    if (r === undefined) throw failure("order_not_found", "rejected");
    if (r instanceof Error) throw r;
    return r;
  }
}

describe("findGoneOrders: which restored orders the exchange no longer holds open", () => {
  it("reads each one missing from the open list; a terminal status or a 404 makes it gone", async () => {
    const restored = new Map([
      ["o-open", "c-open"],
      ["o-filled", "c-filled"],
      ["o-expired", "c-expired"],
      ["o-cancelled", "c-cancelled"],
      ["o-settle", "c-settle"],
      ["o-gone", "c-gone"],
      ["o-pending", "c-pending"],
    ]);
    const ex = new FakeExchange(
      ["o-open", "someone-else"],
      new Map([
        ["o-filled", order("o-filled", "FILLED")],
        ["o-expired", order("o-expired", "EXPIRED")],
        ["o-cancelled", order("o-cancelled", "CANCELLED")],
        ["o-settle", order("o-settle", "SETTLEMENT_FAILED")],
        // Not in the open list, yet read as still live: the next start looks again.
        ["o-pending", order("o-pending", "PENDING")],
      ]),
    );
    const check = await findGoneOrders(ex, restored);
    expect(check).toEqual({
      gone: [
        { orderId: "o-filled", clientOrderId: "c-filled", marketId: "m1", status: "FILLED" },
        { orderId: "o-expired", clientOrderId: "c-expired", marketId: "m1", status: "EXPIRED" },
        { orderId: "o-cancelled", clientOrderId: "c-cancelled", marketId: "m1", status: "CANCELLED" },
        { orderId: "o-settle", clientOrderId: "c-settle", marketId: "m1", status: "SETTLEMENT_FAILED" },
        { orderId: "o-gone", clientOrderId: "c-gone", marketId: undefined, status: NOT_FOUND_STATUS },
      ],
      open: 1,
      undecided: 1,
    });
    expect(ex.reads).not.toContain("o-open");
  });

  it("stops reading at the first failed read and at the cap; those stay undecided", async () => {
    const restored = new Map([
      ["o1", "c1"],
      ["o2", "c2"],
      ["o3", "c3"],
    ]);
    const failing = new FakeExchange(
      [],
      new Map<string, Order | Error>([
        ["o1", order("o1", "CANCELLED")],
        ["o2", failure("exchange_unavailable", "retryable")],
        ["o3", order("o3", "CANCELLED")],
      ]),
    );
    const errors: string[] = [];
    const check = await findGoneOrders(failing, restored, { onReadError: (id) => errors.push(id) });
    expect(check.gone.map((g) => g.orderId)).toEqual(["o1"]);
    expect(check.undecided).toBe(2);
    expect(failing.reads).toEqual(["o1", "o2"]);
    expect(errors).toEqual(["o2"]);

    const capped = new FakeExchange([], new Map([["o1", order("o1", "EXPIRED")]]));
    expect(await findGoneOrders(capped, restored, { maxReads: 2 })).toMatchObject({ open: 0, undecided: 1 });
    expect(capped.reads).toEqual(["o1", "o2"]);
    expect(GONE_READS_MAX).toBeGreaterThan(0);
  });

  it("makes no request when nothing was restored (a first run, or runs that all stopped cleanly)", async () => {
    const ex = {
      openOrders: () => Promise.reject(new Error("no request expected")),
      order: () => Promise.reject(new Error("no request expected")),
    };
    expect(await findGoneOrders(ex, new Map())).toEqual({ gone: [], open: 0, undecided: 0 });
  });
});

describe("journalGoneOrders: an order journaled closed", () => {
  it("is not restored again, retention may prune it, and mm report counts its fills once", () => {
    const db = openJournalDb(journalPath());
    const w = new JournalWriter(db);
    const at = Date.UTC(2025, 5, 1, 12);
    const killed = w.beginRun({ account: ACCOUNT, session: "one", atMs: at, tokens: [] });
    const place = (cid: string, orderId: string) => {
      w.intent(killed, {
        clientOrderId: cid,
        tokenId: "t1",
        marketId: "m1",
        side: "buy",
        level: 0,
        priceMicro: 470_000,
        sizeMicro: 10_000_000n,
        sent: true,
        atMs: at,
      });
      w.outcome(killed, placed(cid, orderId, at));
    };
    // o1 filled 4 of 10 while run 1 watched, the other 6 while nothing ran; o2 still rests.
    place("c1", "o1");
    place("c2", "o2");
    w.fill(
      killed,
      fill({ tradeId: "tr1", orderId: "o1", clientOrderId: "c1", sizeMicro: 4_000_000n }),
      "stream",
    );
    // Killed: no endRun. Run 2 finds o1 gone.
    const second = w.beginRun({ account: ACCOUNT, session: "two", atMs: at + 60_000, tokens: [] });
    expect(readRestore(db, ACCOUNT, second).orders).toEqual(
      new Map([
        ["o1", "c1"],
        ["o2", "c2"],
      ]),
    );
    const third = w.beginRun({ account: ACCOUNT, session: "three", atMs: at + 120_000, tokens: [] });
    const report = buildReport(db);
    journalGoneOrders(
      w,
      second,
      [{ orderId: "o1", clientOrderId: "c1", marketId: "m1", status: "FILLED" }],
      at + 61_000,
    );
    expect(
      db.prepare("SELECT run_id, op, outcome, order_id, code FROM outcomes WHERE outcome = 'closed'").all(),
    ).toEqual([{ run_id: BigInt(second), op: "cancel", outcome: "closed", order_id: "o1", code: "FILLED" }]);
    expect(readRestore(db, ACCOUNT, third).orders).toEqual(new Map([["o2", "c2"]]));
    expect(buildReport(db)).toEqual(report);
    expect(report.total.fills).toBe(1);

    // Retention: o1's placement and intent may go now; o2's stay (it may rest), restore is unchanged.
    new JournalPruner(db).pass(at + 60_000);
    const left = (table: string) =>
      (
        db.prepare(`SELECT client_order_id FROM ${table} ORDER BY id`).all() as { client_order_id: string }[]
      ).map((r) => r.client_order_id);
    expect(left("intents")).toEqual(["c2"]);
    expect(left("outcomes")).toEqual(["c2", "c1"]); // o2's placement, and the closing row (not old enough)
    expect(readRestore(db, ACCOUNT, third).orders).toEqual(new Map([["o2", "c2"]]));
    expect(buildReport(db)).toEqual(report);
    db.close();
  });
});
