import { describe, expect, it } from "vitest";
import type { BookState } from "../../../src/book/book-state.js";
import type { EngineStatus } from "../../../src/engine/engine-api.js";
import type { ExchangePort } from "../../../src/engine/ports.js";
import type { RequestGate } from "../../../src/exchange/caller.js";
import { ExchangeError } from "../../../src/exchange/exchange-error.js";
import type { PlaceOrderOutcome } from "../../../src/exchange/place-outcome.js";
import type { ReconcileSource } from "../../../src/execution/reconcile-run.js";
import { instrumentExchange } from "../../../src/observability/instrument-exchange.js";
import { FillRoles } from "../../../src/observability/metrics/fill-roles.js";
import { closedSet, LabelCap } from "../../../src/observability/metrics/label-cap.js";
import { TickToOrder } from "../../../src/observability/metrics/tick-to-order.js";
import { readinessOf } from "../../../src/observability/readiness.js";

/** A port whose calls answer nothing useful: for what the wrapper adds or passes through. */
function idlePort(): ExchangePort & ReconcileSource {
  return {
    place: async () => ({ kind: "rejected" }) as never,
    cancel: async () => ({}) as never,
    cancelAll: async () => ({ cancelled: 0 }) as never,
    openOrders: async () => [],
    order: async () => ({}) as never,
    ordersByClientId: async () => ({ orders: [], complete: true }),
    trades: async () => ({ trades: [], nextCursor: null }),
    positions: async () => [],
  };
}

describe("LabelCap", () => {
  it("keeps the first values and folds later ones into other", () => {
    const cap = new LabelCap(2);
    expect(["a", "b", "c", "a", "d", "b"].map((v) => cap.of(v))).toEqual([
      "a",
      "b",
      "other",
      "a",
      "other",
      "b",
    ]);
    expect(cap.kept()).toEqual(["a", "b"]);
    expect(closedSet(["x"])("y")).toBe("other");
    expect(() => new LabelCap(-1)).toThrow(RangeError);
  });
});

describe("FillRoles", () => {
  const f = (cid: string | undefined, shares: bigint) => ({
    clientOrderId: cid,
    sizeMicro: shares * 1_000_000n,
  });

  it("fills matched at placement are taker, later fills of the resting rest are maker", () => {
    const roles = new FillRoles();
    roles.sending("a");
    expect(roles.roleOf(f("a", 3n))).toBe("taker"); // arrived before the placement's answer
    roles.answered("a", 5_000_000n); // the answer says 5 filled at once: 3 seen, 2 to come
    expect(roles.roleOf(f("a", 2n))).toBe("taker");
    expect(roles.roleOf(f("a", 4n))).toBe("maker");
    roles.answered("b", 0n);
    expect(roles.roleOf(f("b", 1n))).toBe("maker");
    expect(roles.roleOf(f("zzz", 1n))).toBe("unknown");
    expect(roles.roleOf(f(undefined, 1n))).toBe("unknown");
    roles.sending("c");
    roles.answered("c", undefined); // rejected: nothing to attribute
    expect(roles.roleOf(f("c", 1n))).toBe("unknown");
  });

  it("forgets the oldest orders beyond its bound", () => {
    const roles = new FillRoles(2);
    for (const cid of ["a", "b", "c"]) roles.answered(cid, 0n);
    expect(roles.roleOf(f("a", 1n))).toBe("unknown");
    expect(roles.roleOf(f("c", 1n))).toBe("maker");
  });

  it("forgets the order answered or filled least recently, so one still filling stays", () => {
    const roles = new FillRoles(2);
    roles.answered("a", 2_000_000n);
    roles.answered("b", 0n);
    expect(roles.roleOf(f("a", 1n))).toBe("taker"); // a fill makes `a` the most recent
    roles.answered("c", 0n); // `b` goes
    expect(roles.roleOf(f("b", 1n))).toBe("unknown");
    expect(roles.roleOf(f("a", 1n))).toBe("taker");
    expect(roles.roleOf(f("a", 1n))).toBe("maker");
  });
});

describe("TickToOrder", () => {
  it("measures placements of tick-driven steps from the tick, and leaves other steps out", () => {
    const t = new TickToOrder(100);
    t.tick("A", 1_000);
    t.quote("A", 1_001);
    expect(t.sent("A", 1_004)).toBeCloseTo(0.004, 9);
    expect(t.sent("A", 1_250)).toBeCloseTo(0.25, 9); // a placement the queue held counts its wait
    t.quote("A", 5_000); // fill- or timer-driven: the last tick is old
    expect(t.sent("A", 5_002)).toBeUndefined();
    expect(t.sent("B", 5_002)).toBeUndefined();
  });
});

describe("instrumentExchange", () => {
  const error = (outcome: "rejected" | "retryable" | "ambiguous") =>
    new ExchangeError({ code: "x", message: "x", outcome, endpoint: "POST /api/orders/cancel" });

  it("times every call by endpoint and outcome and reports placement fills", async () => {
    const seen: string[] = [];
    const roles: string[] = [];
    let clock = 0;
    const accepted: PlaceOrderOutcome = {
      kind: "accepted",
      result: { orderId: "o1", status: "PARTIAL", filledQty: "2.5", remainingQty: "7.5", trades: [] },
      requestId: undefined,
    };
    const port: ExchangePort & ReconcileSource = {
      place: async () => {
        clock += 7;
        return accepted;
      },
      cancel: async () => {
        clock += 3;
        throw error("retryable");
      },
      cancelAll: async () => ({ cancelled: 0 }) as never,
      openOrders: async () => [],
      order: async () => {
        throw new Error("bug");
      },
      ordersByClientId: async () => ({ orders: [], complete: true }),
      trades: async () => ({ trades: [], nextCursor: null }),
      positions: async () => [],
    };
    const ex = instrumentExchange(
      port,
      {
        observeHttp: (e, o, s) => void seen.push(`${e}|${o}|${s}`),
        onPlacementSending: (cid) => void roles.push(`send ${cid}`),
        onPlacementAnswered: (cid, filled) => void roles.push(`answer ${cid} ${filled}`),
      },
      () => clock,
    );
    await ex.place({ clientOrderId: "c1" } as never);
    await expect(ex.cancel("o1")).rejects.toBeInstanceOf(ExchangeError);
    await expect(ex.order("o1")).rejects.toThrow("bug");
    await ex.openOrders();
    expect(seen).toEqual([
      "POST /api/orders/place|accepted|0.007",
      "POST /api/orders/cancel|retryable|0.003",
      "GET /api/orders/{id}|error|0",
      "GET /api/orders/open|ok|0",
    ]);
    expect(roles).toEqual(["send c1", "answer c1 2500000"]);
  });

  it("passes the port's optional reads through, timed, and adds none the port lacks", async () => {
    const seen: string[] = [];
    const base = idlePort();
    const hooks = {
      observeHttp: (e: string, o: string) => void seen.push(`${e}|${o}`),
      onPlacementSending: () => {},
      onPlacementAnswered: () => {},
    };
    const bare = instrumentExchange(base, hooks, () => 0);
    expect([bare.platformFrozen, bare.positionsAt, bare.orderFills]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    const full = instrumentExchange(
      {
        ...base,
        platformFrozen: async () => true,
        positionsAt: async () => ({ positions: [], asOfMs: 5 }),
        orderFills: async () => [],
      },
      hooks,
      () => 0,
    );
    expect(await full.platformFrozen?.()).toBe(true);
    expect((await full.positionsAt?.())?.asOfMs).toBe(5);
    expect(await full.orderFills?.("o1")).toEqual([]);
    expect(seen).toEqual([
      "GET /api/platform/status|ok",
      "GET /api/me/positions|ok",
      "GET /api/orders/{id}/fills|ok",
    ]);
  });

  it("passes the engine's request gate on to the port (order reads stay paced when instrumented)", () => {
    const gates: unknown[] = [];
    const port: ExchangePort & ReconcileSource = { ...idlePort(), gateRequests: (g) => void gates.push(g) };
    const hooks = { observeHttp: () => {}, onPlacementSending: () => {}, onPlacementAnswered: () => {} };
    const asked: string[] = [];
    const gate: RequestGate = (method, route) => {
      asked.push(`${method} ${route}`);
      return undefined;
    };
    instrumentExchange(port, hooks, () => 0).gateRequests?.(gate);
    // Passed on timed (its waits kept out of the calls' latency), asking the engine's gate itself.
    expect(gates).toHaveLength(1);
    expect((gates[0] as RequestGate)("GET", "/api/orders/open")).toBeUndefined();
    expect(asked).toEqual(["GET /api/orders/open"]);
    const { gateRequests: _, ...bare } = port;
    expect(instrumentExchange(bare, hooks, () => 0).gateRequests).toBeUndefined();
  });
});

describe("readinessOf", () => {
  const status = (over: Partial<EngineStatus>): EngineStatus => ({
    started: true,
    reconciled: true,
    quotingTokens: 0,
    openOrders: 0,
    inFlight: 0,
    killSwitch: false,
    pnlMicro: 0n,
    drawdownMicro: 0n,
    ...over,
  });
  const book = (status: BookState["status"]): BookState => ({
    tokenId: "t",
    status,
    reason: "snapshot",
    crossed: false,
    quotable: status === "synced",
    since: 0,
    lastSeq: 1,
    lastUpdateTs: 0,
  });

  it("is not ready until started, reconciled and every book synced, then stays ready", () => {
    let s = status({ started: false, reconciled: false });
    const states = new Map<string, BookState>([
      ["a", book("synced")],
      ["b", book("resyncing")],
    ]);
    const tracker = { tokens: () => [...states.keys()], state: (t: string) => states.get(t) };
    const ready = readinessOf({ trackers: [tracker], engine: { status: () => s } });
    expect(ready()).toEqual({ ready: false, reason: "engine not started" });
    s = status({ reconciled: false });
    expect(ready().reason).toMatch(/not reconciled/);
    s = status({});
    expect(ready().reason).toMatch(/^books not synced: 1 of 2/);
    states.set("b", book("synced"));
    expect(ready()).toEqual({ ready: true });
    states.set("b", book("stale"));
    expect(ready()).toEqual({ ready: true }); // sticky by default
    const live = readinessOf({ trackers: [tracker], engine: { status: () => s }, sticky: false });
    expect(live().ready).toBe(false);
  });
});
