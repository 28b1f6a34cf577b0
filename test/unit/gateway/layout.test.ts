import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SubscriptionLayout } from "../../../src/gateway/layout.js";
import { DEFAULT_LIMITS } from "../../../src/gateway/options.js";

const ids = (n: number, from = 0): string[] => Array.from({ length: n }, (_, i) => String(from + i));

function shape(layout: SubscriptionLayout): number[][] {
  return Array.from({ length: layout.linkCount }, (_, l) => layout.subsOn(l).map((s) => s.ids.size));
}

describe("SubscriptionLayout", () => {
  it("1,000 tokens: 10 subscriptions of 100 on one link", () => {
    const layout = new SubscriptionLayout(DEFAULT_LIMITS);
    expect([...layout.place("token_book", ids(1_000))]).toEqual([0]);
    expect(shape(layout)).toEqual([Array(10).fill(100)]);
  });

  it("25,600 tokens fit one link exactly; 25,601 open a second; 30,000 are 256 + 44", () => {
    const a = new SubscriptionLayout(DEFAULT_LIMITS);
    a.place("token_book", ids(25_600));
    expect(shape(a).map((l) => l.length)).toEqual([256]);
    a.place("token_book", ["x"]);
    expect(shape(a).map((l) => l.length)).toEqual([256, 1]);
    const b = new SubscriptionLayout(DEFAULT_LIMITS);
    b.place("token_book", ids(30_000));
    expect(shape(b).map((l) => l.length)).toEqual([256, 44]);
    expect(b.subOf("token_book", "29999")?.link).toBe(1);
  });

  it("channels never share a subscription; the same id on two channels is two entries", () => {
    const layout = new SubscriptionLayout(DEFAULT_LIMITS);
    layout.place("token_book", ids(150));
    layout.place("token_trade_matches", ids(150));
    expect(layout.subsOn(0).map((s) => `${s.channel}:${s.ids.size}`)).toEqual([
      "token_book:100",
      "token_book:50",
      "token_trade_matches:100",
      "token_trade_matches:50",
    ]);
  });

  it("placing again is a no-op; removed room is refilled before a new subscription opens", () => {
    const layout = new SubscriptionLayout(DEFAULT_LIMITS);
    layout.place("token_book", ids(200));
    expect(layout.place("token_book", ids(200)).size).toBe(0);
    layout.remove("token_book", ids(30));
    layout.place("token_book", ids(30, 1_000));
    expect(shape(layout)).toEqual([[100, 100]]);
    expect(layout.has("token_book", "5")).toBe(false);
    expect(layout.has("token_book", "1005")).toBe(true);
  });

  it("wallet-scoped channels: one subscription without ids; removal marks it empty", () => {
    const layout = new SubscriptionLayout(DEFAULT_LIMITS);
    layout.place("user_fills", []);
    layout.place("user_fills", []);
    expect(layout.subsOn(0)).toHaveLength(1);
    const sub = layout.subOf("user_fills", "");
    expect(sub === undefined ? true : layout.isEmpty(sub)).toBe(false);
    layout.remove("user_fills", []);
    expect(sub === undefined ? false : layout.isEmpty(sub)).toBe(true);
  });

  it("property: any sequence of places and removes keeps every cap and indexes every wanted id once", () => {
    const op = fc.record({
      add: fc.boolean(),
      channel: fc.constantFrom("token_book" as const, "token_ohlc" as const),
      from: fc.nat(400),
      n: fc.integer({ min: 1, max: 250 }),
    });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 30 }), (ops) => {
        const layout = new SubscriptionLayout({ maxIdsPerSubscription: 7, maxSubscriptionsPerConnection: 5 });
        const wanted = { token_book: new Set<string>(), token_ohlc: new Set<string>() };
        for (const o of ops) {
          const batch = ids(o.n, o.from);
          if (o.add) {
            layout.place(o.channel, batch);
            for (const id of batch) wanted[o.channel].add(id);
          } else {
            layout.remove(o.channel, batch);
            for (const id of batch) wanted[o.channel].delete(id);
          }
        }
        for (let l = 0; l < layout.linkCount; l++) {
          expect(layout.subsOn(l).length).toBeLessThanOrEqual(5);
          for (const s of layout.subsOn(l)) expect(s.ids.size).toBeLessThanOrEqual(7);
        }
        for (const ch of ["token_book", "token_ohlc"] as const) {
          const held = layout.idsOf(ch);
          expect(held.length).toBe(new Set(held).size);
          expect(new Set(held)).toEqual(wanted[ch]);
        }
      }),
    );
  });
});
