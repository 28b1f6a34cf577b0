import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Fill } from "../../../src/core/trading.js";
import { isTerminal, type OrderEvent } from "../../../src/execution/order-state.js";
import { OrderStore } from "../../../src/execution/order-store.js";

/*
 * OrderStore keeps a per-token list of its non-terminal orders (what live() returns, on every
 * quoting step) and a per-token version (what the engine's quote memo compares). Both must agree
 * with the whole store after any sequence of operations: placements, every order event (a dropped
 * placement answered after all comes back to life), fills before and after ids are known,
 * reconciler verdicts and pruning.
 */

const TOKENS = ["t1", "t2"];

type Op =
  | { op: "track"; token: number }
  | { op: "apply"; order: number; ev: OrderEvent }
  | { op: "fill"; order: number; qty: number; early: boolean }
  | { op: "reconcile"; order: number; state: "open" | "cancelled" | "filled" | "unknown" }
  | { op: "prune"; before: number };

const event: fc.Arbitrary<OrderEvent> = fc.oneof(
  fc.constant({ kind: "sent" } as const),
  fc.constantFrom("OPEN", "PARTIAL", "FILLED").map((status) => ({
    kind: "accepted" as const,
    orderId: "",
    status: status as "OPEN" | "PARTIAL" | "FILLED",
    filledMicro: status === "PARTIAL" ? 3n : status === "FILLED" ? 10n : 0n,
  })),
  fc.constant({ kind: "rejected", code: "x" } as const),
  fc.constant({ kind: "ambiguous" } as const),
  fc.constant({ kind: "dropped" } as const),
  fc.constant({ kind: "cancel_requested" } as const),
  fc.constant({ kind: "cancel_confirmed" } as const),
  fc.boolean().map((retryable) => ({ kind: "cancel_failed" as const, code: "y", retryable })),
);

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ op: fc.constant("track" as const), token: fc.nat(1) }) },
  { weight: 6, arbitrary: fc.record({ op: fc.constant("apply" as const), order: fc.nat(30), ev: event }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant("fill" as const),
      order: fc.nat(30),
      qty: fc.integer({ min: 1, max: 6 }),
      early: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant("reconcile" as const),
      order: fc.nat(30),
      state: fc.constantFrom("open" as const, "cancelled" as const, "filled" as const, "unknown" as const),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("prune" as const), before: fc.nat(60) }) },
);

const cid = (i: number) => `c${i}`;
const oid = (i: number) => `o${i}`;
const snapshot = (s: OrderStore, token: string) =>
  JSON.stringify(
    [...s.all()].filter((o) => o.tokenId === token),
    (_, v) => (typeof v === "bigint" ? `${v}n` : v),
  );

describe("OrderStore: live index and versions", () => {
  it("live(token) is always the token's non-terminal orders in creation order, and any change bumps its version", () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 120 }), (ops) => {
        const s = new OrderStore();
        let created = 0;
        let trade = 0;
        ops.forEach((o, now) => {
          const before = TOKENS.map((t) => ({ json: snapshot(s, t), version: s.version(t) }));
          switch (o.op) {
            case "track":
              s.track(
                {
                  clientOrderId: cid(created++),
                  tokenId: TOKENS[o.token] as string,
                  marketId: "m",
                  side: "buy",
                  level: 0,
                  priceMicro: 500_000,
                  sizeMicro: 10n,
                },
                now,
              );
              break;
            case "apply":
              s.apply(
                cid(o.order),
                o.ev.kind === "accepted" ? { ...o.ev, orderId: oid(o.order) } : o.ev,
                now,
              );
              break;
            case "fill": {
              const known = s.get(cid(o.order));
              const f: Fill = {
                tradeId: `x${trade++}`,
                orderId: oid(o.order),
                clientOrderId: o.early ? cid(o.order) : undefined,
                tokenId: known?.tokenId ?? "t1",
                side: "buy",
                priceMicro: 500_000,
                sizeMicro: BigInt(o.qty),
                tsMs: now,
              };
              s.recordFill(f);
              break;
            }
            case "reconcile":
              s.reconcile(
                { clientOrderId: cid(o.order), orderId: oid(o.order), state: o.state, reason: "t" },
                now,
              );
              break;
            case "prune":
              s.prune(o.before);
              break;
          }
          TOKENS.forEach((t, i) => {
            const expected = [...s.all()].filter((x) => x.tokenId === t && !isTerminal(x.state));
            expect(s.live(t)).toEqual(expected);
            for (const [a, b] of s.live(t).map((x, j) => [x, expected[j]])) expect(a).toBe(b);
            const was = before[i] as { json: string; version: number };
            if (o.op !== "prune" && snapshot(s, t) !== was.json) expect(s.version(t)).not.toBe(was.version);
          });
        });
      }),
      { numRuns: 300 },
    );
  });

  it("a dropped placement answered after all is live again in its creation place", () => {
    const s = new OrderStore();
    const base = {
      tokenId: "t1",
      marketId: "m",
      side: "buy" as const,
      level: 0,
      priceMicro: 1,
      sizeMicro: 10n,
    };
    s.track({ ...base, clientOrderId: "a" }, 0);
    s.track({ ...base, clientOrderId: "b" }, 0);
    s.track({ ...base, clientOrderId: "c" }, 0);
    s.apply("b", { kind: "dropped" }, 1);
    expect(s.live("t1").map((o) => o.clientOrderId)).toEqual(["a", "c"]);
    s.apply("b", { kind: "accepted", orderId: "ob", status: "OPEN", filledMicro: 0n }, 2);
    expect(s.live("t1").map((o) => o.clientOrderId)).toEqual(["a", "b", "c"]);
  });
});
