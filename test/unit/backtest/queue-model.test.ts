import { describe, expect, it } from "vitest";
import { QueueModel } from "../../../src/backtest/replay/queue-model.js";

describe("QueueModel", () => {
  it("takes decreases off the front: ahead falls first, then the excess goes through the order", () => {
    const q = new QueueModel();
    q.join("o1", "T", "buy", 490_000n, 100n);
    expect(q.consume("T", "buy", 490_000n, 60n)).toBe(0n);
    expect(q.ahead("o1")).toBe(40n);
    expect(q.consume("T", "buy", 490_000n, 55n)).toBe(15n);
    expect(q.ahead("o1")).toBe(0n);
    expect(q.consume("T", "buy", 490_000n, 7n)).toBe(7n);
  });

  it("reports the largest excess among the level's orders, and nothing for other levels or sides", () => {
    const q = new QueueModel();
    q.join("front", "T", "sell", 510_000n, 10n);
    q.join("back", "T", "sell", 510_000n, 50n);
    expect(q.consume("T", "buy", 510_000n, 30n)).toBe(0n);
    expect(q.consume("T", "sell", 520_000n, 30n)).toBe(0n);
    expect(q.consume("T", "sell", 510_000n, 30n)).toBe(20n);
    expect([q.ahead("front"), q.ahead("back")]).toEqual([0n, 20n]);
  });

  it("forgets orders that leave", () => {
    const q = new QueueModel();
    q.join("o1", "T", "buy", 1n, 5n);
    q.leave("o1");
    q.leave("unknown");
    expect(q.size).toBe(0);
    expect(q.consume("T", "buy", 1n, 10n)).toBe(0n);
    expect(q.ahead("o1")).toBeUndefined();
  });
});
