import { describe, expect, it } from "vitest";
import {
  checkExit,
  checkInventory,
  checkNoDuplicates,
  checkNoForeignOrders,
  checkNoOrphans,
  checkNoPlacementsWhile,
  checkNoStaleQuotes,
  mayHaveBeenDone,
} from "./invariants.js";
import type { VenueOrder } from "./venue-log.js";
import type { TappedRequest } from "./wire-tap.js";

// The fault suite passes only if these checks can fail: each is shown catching what it is for.

const order = (id: string, cid: string | undefined, placedAt = 0, endedAt?: number): VenueOrder => ({
  orderId: id,
  clientOrderId: cid,
  tokenId: "T",
  marketId: "M",
  side: "buy",
  price: 500_000n,
  placedAt,
  endedAt,
  remaining: 1n,
});

const place = (
  cid: string,
  status: number | undefined,
  placementStatus?: string,
  errorCode?: string,
): TappedRequest => ({
  method: "POST",
  path: "/api/orders/place",
  startedAt: 0,
  clientOrderId: cid,
  placement: { marketId: "M", outcome: "YES" },
  status,
  answeredAt: status === undefined ? undefined : 1,
  placementStatus,
  errorCode,
  abandoned: status === undefined,
});

describe("fault-suite invariants", () => {
  it("orphans: an open order the bot does not track, by orderId or clientOrderId", () => {
    const open = [order("o1", "mm-a-1"), order("o2", "mm-a-2")];
    expect(checkNoOrphans(open, [{ clientOrderId: "mm-a-1", orderId: "o1" }]).ok).toBe(false);
    expect(
      checkNoOrphans(open, [
        { clientOrderId: "mm-a-1", orderId: "o1" },
        { clientOrderId: "mm-a-2", orderId: undefined }, // an answer still on its way
      ]).ok,
    ).toBe(true);
    expect(checkNoForeignOrders(open, "a").ok).toBe(true);
    expect(checkNoForeignOrders([...open, order("o3", "mm-b-1")], "a").ok).toBe(false);
  });

  it("duplicates: two orders for one clientOrderId, an order without one, a resend after a maybe-done answer", () => {
    expect(checkNoDuplicates([order("o1", "c"), order("o2", "c")], []).ok).toBe(false);
    expect(checkNoDuplicates([order("o1", undefined)], []).ok).toBe(false);
    const transport = place("c", 503, undefined, "exchange_transport_error");
    for (const first of [place("c", undefined), place("c", 500), place("c", 201, "OPEN"), transport]) {
      expect(mayHaveBeenDone(first)).toBe(true);
      expect(checkNoDuplicates([], [first, place("c", 201, "OPEN")]).ok).toBe(false);
    }
    const unavailable = place("c", 503, undefined, "exchange_unavailable");
    for (const first of [
      place("c", 429),
      unavailable,
      place("c", 503),
      place("c", 409),
      place("c", 201, "REJECTED"),
    ]) {
      expect(mayHaveBeenDone(first)).toBe(false);
      expect(checkNoDuplicates([order("o1", "c")], [first, place("c", 201, "OPEN")]).ok).toBe(true);
    }
  });

  it("inventory: holdings at start + the engine's position must equal the exchange's", () => {
    const base = new Map([["T", 5_000n]]);
    expect(checkInventory(["T"], base, () => 2n, new Map([["T", 5_002n]])).ok).toBe(true);
    expect(checkInventory(["T"], base, () => 2n, new Map([["T", 5_000n]])).ok).toBe(false);
    expect(checkInventory(["T"], new Map(), () => 0n, new Map()).ok).toBe(true);
  });

  it("stale: a placement inside a stale span, or a quote left resting past the grace", () => {
    const spans = [{ tokenId: "T", from: 1_000, to: 5_000 }];
    expect(checkNoStaleQuotes(spans, [], [{ tokenId: "T", at: 2_000 }], 500, 9_000).ok).toBe(false);
    expect(checkNoStaleQuotes(spans, [], [{ tokenId: "T", at: 6_000 }], 500, 9_000).ok).toBe(true);
    expect(checkNoStaleQuotes(spans, [order("o1", "c", 0, 1_200)], [], 500, 9_000).ok).toBe(true);
    expect(checkNoStaleQuotes(spans, [order("o1", "c", 0, 2_000)], [], 500, 9_000).ok).toBe(false);
    expect(checkNoStaleQuotes(spans, [order("o1", "c", 0)], [], 500, 9_000).ok).toBe(false);
  });

  it("stale: the event loop's stall while the quote rested extends the grace, and only that", () => {
    const spans = [{ tokenId: "T", from: 1_000, to: 5_000 }];
    // Pulled 2 000 ms in with a 500 ms grace: late, unless the shared loop was stalled 1 500 ms of it.
    const pulled = [order("o1", "c", 0, 3_000)];
    const stall = (ms: number) => (from: number, to: number) => Math.min(ms, Math.max(0, to - from));
    expect(checkNoStaleQuotes(spans, pulled, [], 500, 9_000, stall(1_500)).ok).toBe(true);
    const late = checkNoStaleQuotes(spans, pulled, [], 500, 9_000, stall(1_400));
    expect(late.problems).toEqual(["o1 live 2000 ms into a stale span (grace 500 ms + 1400 ms loop stall)"]);
    // The window asked about runs from the span's start to the quote's end (or the span's).
    const asked: [number, number][] = [];
    checkNoStaleQuotes(spans, pulled, [], 500, 9_000, (from, to) => {
      asked.push([from, to]);
      return 0;
    });
    expect(asked).toEqual([[1_000, 3_000]]);
  });

  it("gated: a placement while the market was known closed", () => {
    const sent = [{ tokenId: "T", at: 1_500 }];
    expect(checkNoPlacementsWhile(sent, ["T"], 1_000, 2_000).ok).toBe(false);
    expect(checkNoPlacementsWhile(sent, ["U"], 1_000, 2_000).ok).toBe(true);
    expect(checkNoPlacementsWhile(sent, undefined, 1_600, 2_000).ok).toBe(true);
  });

  it("exit: the code and the reason named", () => {
    expect(checkExit({ exitCode: 3, reason: "api_key_revoked" }, 3, "api_key_revoked").ok).toBe(true);
    expect(checkExit({ exitCode: 1, reason: "api_key_revoked" }, 3, "api_key_revoked").ok).toBe(false);
    expect(checkExit({ exitCode: 3, reason: "stop failed" }, 3, "api_key_revoked").ok).toBe(false);
    expect(checkExit(undefined, 3, "api_key_revoked").ok).toBe(false);
  });
});
