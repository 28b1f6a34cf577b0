import { describe, expect, it } from "vitest";
import { QueueModel } from "../../../src/backtest/replay/queue-model.js";

describe("QueueModel", () => {
  it("takes decreases off the front: ahead falls first, then the excess goes through the order", () => {
    const q = new QueueModel();
    q.join("o1", "T", "buy", 490_000n, 100n);
    expect(q.decrease("T", "buy", 490_000n, 60n, 0n, true)).toBe(0n);
    expect(q.ahead("o1")).toBe(40n);
    expect(q.decrease("T", "buy", 490_000n, 55n, 0n, true)).toBe(15n);
    expect(q.ahead("o1")).toBe(0n);
    expect(q.decrease("T", "buy", 490_000n, 7n, 0n, true)).toBe(7n);
  });

  it("moves every order of the level up, and touches nothing on the other side or at worse prices", () => {
    const q = new QueueModel();
    q.join("front", "T", "sell", 510_000n, 10n);
    q.join("back", "T", "sell", 510_000n, 50n);
    expect(q.decrease("T", "buy", 510_000n, 30n, 0n, true)).toBe(0n);
    expect(q.decrease("T", "sell", 500_000n, 30n, 0n, true)).toBe(0n); // a buyer that stopped below the asks
    expect([q.ahead("front"), q.ahead("back")]).toEqual([10n, 50n]);
    expect(q.decrease("T", "sell", 510_000n, 30n, 0n, true)).toBe(20n);
    expect([q.ahead("front"), q.ahead("back")]).toEqual([0n, 20n]);
  });

  it("fills in the venue's priority, the aggressor's quantity used up as it goes", () => {
    const q = new QueueModel();
    q.join("a", "T", "buy", 500_000n, 0n, { remaining: 5n });
    q.join("b", "T", "buy", 500_000n, 100n, { remaining: 30n }); // behind a and 100 recorded
    // 50 traded: 50 past a's place (it takes its 5), none past b's.
    expect(q.decrease("T", "buy", 500_000n, 50n, 0n, true)).toBe(5n);
    expect([q.ahead("a"), q.ahead("b")]).toEqual([0n, 50n]);
    // 60 more: 10 past b's place, of which a (5 left to fill, as far as the model knows) takes 5.
    expect(q.decrease("T", "buy", 500_000n, 60n, 0n, true)).toBe(10n);
  });

  it("trades through orders at better prices first: they get the whole trade, then the level's queue", () => {
    const q = new QueueModel({ type: "conservative", trades: "recorded" });
    q.join("inside", "T", "buy", 500_000n, 0n, { remaining: 10n });
    q.join("deep", "T", "buy", 480_000n, 50n, { remaining: 30n });
    // A seller's 60 at 0.48: the 0.50 bid takes 10 of it, which leaves 50 for the 50 ahead of deep.
    expect(q.trade("T", "buy", 480_000n, 60n)).toBe(10n);
    expect(q.ahead("deep")).toBe(0n);
    // Inferred trades do the same: a touch decrease at 0.48 reaches a bid at 0.50 first.
    const inferred = new QueueModel();
    inferred.join("inside", "T", "buy", 500_000n, 0n, { remaining: 10n });
    expect(inferred.decrease("T", "buy", 480_000n, 40n, 35n, true)).toBe(5n);
    expect(inferred.decrease("T", "buy", 480_000n, 35n, 30n, false)).toBe(0n); // a cancel
  });

  it("stops at the first order not filled whole: nothing behind it trades first", () => {
    const q = new QueueModel();
    q.join("a", "T", "buy", 500_000n, 40n, { remaining: 10n });
    q.join("b", "T", "buy", 500_000n, 0n, { remaining: 10n }); // a queue place the model left ahead of a's
    expect(q.decrease("T", "buy", 500_000n, 20n, 0n, true)).toBe(0n);
    expect([q.ahead("a"), q.ahead("b")]).toEqual([20n, 0n]);
  });

  it("forgets orders that leave", () => {
    const q = new QueueModel();
    q.join("o1", "T", "buy", 1n, 5n);
    q.leave("o1");
    q.leave("unknown");
    expect(q.size).toBe(0);
    expect(q.decrease("T", "buy", 1n, 10n, 0n, true)).toBe(0n);
    expect(q.ahead("o1")).toBeUndefined();
  });
});
