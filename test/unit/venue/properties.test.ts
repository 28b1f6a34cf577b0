import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import type { Address } from "../../../src/core/types.js";
import type { BookChangesEvent } from "../../../src/venue/events.js";
import { seededVenueIds } from "../../../src/venue/ids.js";
import { SimVenue } from "../../../src/venue/sim-venue.js";
import type { PlaceOrderInput } from "../../../src/venue/types.js";
import { A, B, binaryMarket, C, M1, M2, M2_NO, M2_YES, NO, T0, u, YES } from "./fixture.js";

const WALLETS = [A, B, C] as const;
const TOKENS = [YES, NO, M2_YES, M2_NO] as const;
const ASSETS = ["usdc", ...TOKENS] as const;

type Cmd =
  | { kind: "place"; input: PlaceOrderInput }
  | { kind: "cancel"; wallet: Address; pick: number }
  | { kind: "cancelAll"; wallet: Address; market: string | undefined }
  | { kind: "advance"; ms: number }
  | { kind: "credit"; wallet: Address; asset: (typeof ASSETS)[number]; amount: bigint }
  | { kind: "status"; market: string; status: "OPEN" | "PAUSED" };

const wallet = fc.constantFrom(...WALLETS);
const placeCmd: fc.Arbitrary<Cmd> = fc
  .record({
    wallet,
    market: fc.constantFrom(M1, M2),
    outcome: fc.constantFrom("YES", "NO"),
    side: fc.constantFrom("buy", "sell") as fc.Arbitrary<"buy" | "sell">,
    // M1 ticks at 0.01, M2 at 0.001: pick a band position and scale per market below.
    level: fc.integer({ min: 35, max: 65 }),
    qty: fc.oneof(fc.bigInt({ min: 1n, max: 50n }), fc.bigInt({ min: 1_000_000n, max: 400_000_000n })),
    tif: fc.constantFrom("gtc", "gtc", "gtc", "ioc", "fok", "market-ioc", "market-fok"),
    expiry: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
    clientOrderId: fc.option(fc.constantFrom("c1", "c2", "c3"), { freq: 4, nil: undefined }),
  })
  .map((r) => {
    const tick = r.market === M1 ? 10_000n : 1_000n;
    const price = r.market === M1 ? BigInt(r.level) * tick : BigInt(r.level * 10 + (r.level % 7)) * tick;
    const [type, timeInForce] = r.tif.startsWith("market")
      ? (["market", r.tif.slice(7)] as const)
      : (["limit", r.tif] as const);
    const input: PlaceOrderInput = {
      wallet: r.wallet,
      marketId: r.market,
      outcome: r.outcome,
      side: r.side,
      price,
      quantity: r.qty,
      type,
      timeInForce: timeInForce as "gtc" | "ioc" | "fok",
      ...(r.expiry === undefined ? {} : { expiry: T0 / 1000 + r.expiry }),
      ...(r.clientOrderId === undefined ? {} : { clientOrderId: r.clientOrderId }),
    };
    return { kind: "place" as const, input };
  });

const cmd: fc.Arbitrary<Cmd> = fc.oneof(
  { arbitrary: placeCmd, weight: 12 },
  { arbitrary: fc.record({ kind: fc.constant("cancel" as const), wallet, pick: fc.nat() }), weight: 3 },
  {
    arbitrary: fc.record({
      kind: fc.constant("cancelAll" as const),
      wallet,
      market: fc.option(fc.constantFrom(M1, M2), { nil: undefined }),
    }),
    weight: 1,
  },
  {
    arbitrary: fc.record({ kind: fc.constant("advance" as const), ms: fc.integer({ min: 0, max: 2_500 }) }),
    weight: 2,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant("credit" as const),
      wallet,
      asset: fc.constantFrom(...ASSETS),
      amount: fc.bigInt({ min: 1n, max: 50_000_000n }),
    }),
    weight: 1,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant("status" as const),
      market: fc.constantFrom(M1, M2),
      status: fc.constantFrom("OPEN", "OPEN", "PAUSED") as fc.Arbitrary<"OPEN" | "PAUSED">,
    }),
    weight: 1,
  },
);

function setup() {
  const clock = new SimClock(T0);
  const venue = new SimVenue({ clock, ids: seededVenueIds(7), makerFeeBps: 50, defaultFeeTakerBps: 100 });
  venue.registerMarket(binaryMarket(M1, YES, NO, { feeTakerBps: 200 }));
  venue.registerMarket(binaryMarket(M2, M2_YES, M2_NO, { feeTakerBps: null, tickSize: 1_000n }));
  const supply = new Map<string, bigint>(ASSETS.map((a) => [a, 0n]));
  const credit = (w: Address, asset: string, amount: bigint) => {
    venue.credit(w, asset, amount);
    supply.set(asset, (supply.get(asset) ?? 0n) + amount);
  };
  for (const w of WALLETS) for (const a of ASSETS) credit(w, a, u("300"));
  const levels = new Map<string, { seq: number; bids: Map<bigint, bigint>; asks: Map<bigint, bigint> }>();
  for (const t of TOKENS) {
    const s = venue.bookSnapshot(t);
    levels.set(t, { seq: s?.seq ?? -1, bids: new Map(), asks: new Map() });
  }
  const replayErrors: string[] = [];
  venue.subscribe((e) => {
    if (e.type !== "book_changes") return;
    const l = levels.get(e.tokenId);
    if (l === undefined) return;
    if (e.prevSeq !== l.seq || e.seq !== l.seq + 1)
      replayErrors.push(`${e.tokenId}: ${l.seq} → ${e.prevSeq}/${e.seq}`);
    l.seq = e.seq;
    applyChanges(l, e);
  });
  return { clock, venue, supply, credit, levels, replayErrors };
}

function applyChanges(
  l: { bids: Map<bigint, bigint>; asks: Map<bigint, bigint> },
  e: BookChangesEvent,
): void {
  for (const c of e.changes) {
    const side = c.side === "buy" ? l.bids : l.asks;
    if (c.size === 0n) side.delete(c.price);
    else side.set(c.price, c.size);
  }
}

/** Everything observable about accounts and books, to prove a reject changed nothing. */
function digest(venue: SimVenue): string {
  const state = {
    wallets: WALLETS.map((w) => [venue.balances(w), venue.positions(w), venue.openOrders(w)]),
    books: TOKENS.map((t) => venue.bookSnapshot(t)),
    fees: venue.feeBalances(),
  };
  return JSON.stringify(state, (_k, v) => (typeof v === "bigint" ? v.toString() : v));
}

function checkInvariants(h: ReturnType<typeof setup>): void {
  const { venue, clock, supply, levels, replayErrors } = h;
  // Conservation: wallets + fee account hold exactly what was credited, per asset.
  const fees = venue.feeBalances();
  for (const asset of ASSETS) {
    let total = asset === "usdc" ? fees.usdc : (fees.shares[asset] ?? 0n);
    for (const w of WALLETS) {
      const b =
        asset === "usdc" ? venue.balances(w).usdc : venue.positions(w).find((p) => p.tokenId === asset);
      if (b === undefined) continue;
      expect(b.reserved).toBeGreaterThanOrEqual(0n);
      expect(b.available).toBeGreaterThanOrEqual(0n);
      total += b.balance;
    }
    expect(total).toBe(supply.get(asset));
  }
  // Reservations equal the sum of open orders' reservations; each order's is what its rest needs.
  const aggregated = new Map<string, bigint>();
  for (const w of WALLETS) {
    const reserved = new Map<string, bigint>();
    for (const o of venue.openOrders(w)) {
      expect(o.status).toBe("OPEN");
      expect(o.remainingQty).toBeGreaterThan(0n);
      if (o.expiry !== 0) expect(o.expiry * 1000).toBeGreaterThan(clock.now());
      const asset = o.side === "buy" ? "usdc" : o.tokenId;
      reserved.set(asset, (reserved.get(asset) ?? 0n) + o.reserved);
      if (o.side === "sell") expect(o.reserved).toBe(o.remainingQty);
      else {
        const need = (o.price * o.remainingQty + 999_999n) / 1_000_000n;
        expect(o.reserved === need || o.reserved === need - 1n).toBe(true);
      }
      const key = `${o.tokenId}/${o.side}/${o.price}`;
      aggregated.set(key, (aggregated.get(key) ?? 0n) + o.remainingQty);
    }
    expect(venue.balances(w).usdc.reserved).toBe(reserved.get("usdc") ?? 0n);
    for (const p of venue.positions(w)) expect(p.reserved).toBe(reserved.get(p.tokenId) ?? 0n);
  }
  // Books: never crossed, levels = Σ resting orders, and the replayed diffs agree with the snapshot.
  for (const t of TOKENS) {
    const s = venue.bookSnapshot(t, 10_000);
    if (s === undefined) throw new Error("missing book");
    const [bid, ask] = [s.bids[0], s.asks[0]];
    if (bid !== undefined && ask !== undefined) expect(bid.price).toBeLessThan(ask.price);
    for (const [side, ls] of [
      ["buy", s.bids],
      ["sell", s.asks],
    ] as const) {
      for (const l of ls) expect(l.size).toBe(aggregated.get(`${t}/${side}/${l.price}`));
    }
    const count = [...aggregated.keys()].filter((k) => k.startsWith(`${t}/`)).length;
    expect(s.bids.length + s.asks.length).toBe(count);
    const replayed = levels.get(t);
    expect(replayed?.seq).toBe(s.seq);
    expect(new Map(s.bids.map((l) => [l.price, l.size]))).toEqual(replayed?.bids);
    expect(new Map(s.asks.map((l) => [l.price, l.size]))).toEqual(replayed?.asks);
  }
  expect(replayErrors).toEqual([]);
}

function run(h: ReturnType<typeof setup>, cmds: readonly Cmd[], placed: string[]): void {
  const { venue, clock } = h;
  for (const c of cmds) {
    if (c.kind === "place") {
      const before = digest(venue);
      const r = venue.place(c.input);
      if (r.status === "REJECTED") {
        expect(r.orderId).toBe("");
        expect(digest(venue)).toBe(before); // a reject (FOK included) changes nothing
      } else if (r.duplicate !== true) {
        placed.push(r.orderId);
        expect(r.filledQty + r.remainingQty).toBe(c.input.quantity);
        expect(r.trades.reduce((s, t) => s + t.quantity, 0n)).toBe(r.filledQty);
        if (c.input.timeInForce === "fok") expect(r.status).toBe("FILLED");
      }
    } else if (c.kind === "cancel") {
      const id = placed.length === 0 ? "none" : (placed[c.pick % placed.length] as string);
      const res = venue.cancel(c.wallet, id);
      if (res.ok) expect(res.order.reserved).toBe(0n);
    } else if (c.kind === "cancelAll") {
      venue.cancelAll(c.wallet, c.market);
    } else if (c.kind === "advance") {
      clock.advanceBy(c.ms);
    } else if (c.kind === "credit") {
      h.credit(c.wallet, c.asset, c.amount);
    } else {
      venue.setMarketStatus(c.market, c.status);
    }
    checkInvariants(h);
  }
}

describe("venue invariants under random operation sequences", () => {
  it("conservation, no negative balances, exact reservations, uncrossed books, replayable diffs", () => {
    fc.assert(
      fc.property(fc.array(cmd, { minLength: 1, maxLength: 60 }), (cmds) => {
        const h = setup();
        run(h, cmds, []);
        // Cancelling everything releases every reservation exactly.
        for (const m of [M1, M2]) h.venue.setMarketStatus(m, "OPEN");
        for (const w of WALLETS) h.venue.cancelAll(w);
        checkInvariants(h);
        for (const w of WALLETS) {
          expect(h.venue.balances(w).usdc.reserved).toBe(0n);
          for (const p of h.venue.positions(w)) expect(p.reserved).toBe(0n);
        }
        for (const t of TOKENS) expect(h.venue.bookSnapshot(t)).toMatchObject({ bids: [], asks: [] });
      }),
      { numRuns: 150 },
    );
  });

  it("is deterministic: the same seed and operations give identical ids, trades and events", () => {
    fc.assert(
      fc.property(fc.array(placeCmd, { minLength: 1, maxLength: 30 }), (cmds) => {
        const trace = () => {
          const h = setup();
          const out: unknown[] = [];
          h.venue.subscribe((e) => out.push(e));
          for (const c of cmds) if (c.kind === "place") out.push(h.venue.place(c.input));
          return JSON.stringify(out, (_k, v) => (typeof v === "bigint" ? `${v}n` : v));
        };
        expect(trace()).toBe(trace());
      }),
      { numRuns: 30 },
    );
  });
});
