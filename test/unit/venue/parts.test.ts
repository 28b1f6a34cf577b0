import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { counterVenueIds, seededVenueIds } from "../../../src/venue/ids.js";
import { KeysetList } from "../../../src/venue/keyset.js";
import { MarketRegistry } from "../../../src/venue/markets.js";
import { MinHeap } from "../../../src/venue/min-heap.js";
import { binaryMarket, M1, NO, u, YES } from "./fixture.js";

describe("MinHeap", () => {
  it("pops in order for any input (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.integer()), (xs) => {
        const h = new MinHeap<number>((a, b) => a < b);
        for (const x of xs) h.push(x);
        const out: number[] = [];
        for (let x = h.pop(); x !== undefined; x = h.pop()) out.push(x);
        expect(out).toEqual([...xs].sort((a, b) => a - b));
        expect(h.size).toBe(0);
      }),
    );
  });
});

describe("KeysetList", () => {
  it("pages cover every matching item exactly once, newest first, whatever the insertion order (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ createdAt: fc.integer({ min: 0, max: 20 }), id: fc.string({ maxLength: 3 }) })),
        fc.integer({ min: 1, max: 5 }),
        (raw, limit) => {
          const uniq = [...new Map(raw.map((k) => [`${k.createdAt}|${k.id}`, k])).values()];
          const list = new KeysetList<{ createdAt: number; id: string }>((k) => k);
          for (const k of uniq) list.insert(k);
          const keep = (k: { createdAt: number }) => k.createdAt % 3 !== 0;
          const seen: { createdAt: number; id: string }[] = [];
          let after: { createdAt: number; id: string } | undefined;
          for (;;) {
            const page = list.page(after, limit, keep);
            seen.push(...page.items);
            if (page.next === undefined) break;
            expect(page.items).toHaveLength(limit);
            after = page.next;
          }
          const expected = uniq
            .filter(keep)
            .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
          expect(seen).toEqual(expected);
        },
      ),
    );
  });
});

describe("ids", () => {
  it("seeded ids are uuid-shaped, time-ordered, deterministic per seed and distinct across seeds", () => {
    const a = seededVenueIds(42);
    const b = seededVenueIds(42);
    const c = seededVenueIds(43);
    const xs = Array.from({ length: 200 }, () => a.orderId());
    expect(xs).toEqual(Array.from({ length: 200 }, () => b.orderId()));
    expect(new Set(xs).size).toBe(200);
    for (const x of xs)
      expect(x).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([...xs].sort()).toEqual(xs);
    expect(c.orderId()).not.toBe(seededVenueIds(42).orderId());
  });

  it("counter ids sort in creation order", () => {
    const ids = counterVenueIds();
    const xs = Array.from({ length: 12 }, () => ids.tradeId());
    expect([...xs].sort()).toEqual(xs);
  });
});

describe("MarketRegistry", () => {
  it.each([
    { name: "zero tick", spec: { tickSize: 0n }, code: "invalid_market" },
    { name: "tick above 0.5", spec: { tickSize: u("0.6") }, code: "invalid_market" },
    { name: "fee above 1000 bps", spec: { feeTakerBps: 1001 }, code: "fee_too_high" },
    {
      name: "non-numeric token id",
      spec: { outcomes: [{ label: "YES", tokenId: "0xabc" }] },
      code: "invalid_market",
    },
    {
      name: "duplicate labels",
      spec: {
        outcomes: [
          { label: "YES", tokenId: "1" },
          { label: "yes", tokenId: "2" },
        ],
      },
      code: "invalid_market",
    },
  ])("refuses $name", ({ spec, code }) => {
    const reg = new MarketRegistry(0, 0);
    expect(() => reg.register(binaryMarket(M1, YES, NO, spec))).toThrow(expect.objectContaining({ code }));
  });

  it("refuses duplicate markets and tokens", () => {
    const reg = new MarketRegistry(0, 0);
    reg.register(binaryMarket(M1, YES, NO));
    expect(() => reg.register(binaryMarket(M1, "7", "8"))).toThrow(
      expect.objectContaining({ code: "market_exists" }),
    );
    expect(() => reg.register(binaryMarket("m-9", YES, "8"))).toThrow(
      expect.objectContaining({ code: "token_exists" }),
    );
  });
});
