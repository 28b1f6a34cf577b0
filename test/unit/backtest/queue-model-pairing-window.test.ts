import { describe, expect, it } from "vitest";
import { ConfigReader } from "../../../src/backtest/config-reader.js";
import { Issues } from "../../../src/backtest/errors.js";
import { PRINT_PAIRING_MS, QueueModel } from "../../../src/backtest/replay/queue-model.js";
import { queueModelSummary, readQueueModel } from "../../../src/backtest/replay/queue-model-config.js";
import type { QueueModelSpec } from "../../../src/backtest/replay/queue-model-spec.js";
import { toWei } from "../../../src/core/wei.js";

const u = (s: string): bigint => toWei(s);
const P = u("0.49");

/**
 * A bot bid of 10 at 0.49 behind 30 recorded shares (20 more behind it); the level falls 50 → 38 at
 * t = 1,000 and a print of 12 (the trade that caused it) arrives `lagMs` later. Returns the size
 * left ahead of the bid.
 */
function aheadAfterLatePrint(spec: QueueModelSpec, lagMs: number): bigint | undefined {
  const q = new QueueModel(spec);
  q.join("o1", "T", "buy", P, u("30"), { remaining: u("10") });
  q.increase("T", "buy", P);
  q.decrease("T", "buy", P, u("50"), u("38"), true, 1_000);
  q.trade("T", "buy", P, u("12"), 1_000 + lagMs);
  return q.ahead("o1");
}

describe("queueModel.printPairingMs: how late a print may follow its decrease", () => {
  const base: QueueModelSpec = { type: "conservative", trades: "recorded" };

  it("defaults to PRINT_PAIRING_MS: a print 20 ms late is another trade and moves the queue again", () => {
    expect(PRINT_PAIRING_MS).toBe(5);
    // 30 ahead, 12 printed: paired it leaves 18; unpaired the cancel of 12 and the print of 12 both move it.
    expect(aheadAfterLatePrint(base, 5)).toBe(u("18"));
    expect(aheadAfterLatePrint(base, 20)).toBe(u("6"));
  });

  it("pairs within a configured window and not beyond it", () => {
    const wide: QueueModelSpec = { ...base, printPairingMs: 50 };
    expect(aheadAfterLatePrint(wide, 20)).toBe(u("18"));
    expect(aheadAfterLatePrint(wide, 50)).toBe(u("18"));
    expect(aheadAfterLatePrint(wide, 51)).toBe(u("6"));
    // 0: only a print of the same instant pairs.
    expect(aheadAfterLatePrint({ ...base, printPairingMs: 0 }, 0)).toBe(u("18"));
    expect(aheadAfterLatePrint({ ...base, printPairingMs: 0 }, 1)).toBe(u("6"));
  });
});

describe("queueModel.printPairingMs in the config", () => {
  const read = (v: unknown) => {
    const issues = new Issues();
    const spec = readQueueModel(new ConfigReader(issues), v);
    return { spec, issues: issues.list };
  };

  it("is read for every model with prints, and echoed in the summary only when set", () => {
    expect(read({ type: "riskAverse", trades: "recorded", printPairingMs: 40 })).toEqual({
      spec: { type: "riskAverse", trades: "recorded", printPairingMs: 40 },
      issues: [],
    });
    const prob = read({ type: "probabilistic", fn: "log", trades: "auto", printPairingMs: 0 }).spec;
    expect(prob).toEqual({ type: "probabilistic", fn: "log", n: 1, trades: "auto", printPairingMs: 0 });
    const c = { prints: 1, printsIgnored: 0, printTrades: 0, printQty: 0n };
    expect(queueModelSummary(prob, c).queueModel).toEqual({
      type: "probabilistic",
      fn: "log",
      trades: "auto",
      printPairingMs: 0,
    });
    expect(read({ type: "conservative", trades: "recorded" }).spec).not.toHaveProperty("printPairingMs");
  });

  it("names what is wrong", () => {
    expect(read({ type: "conservative", printPairingMs: 10 }).issues).toEqual([
      'queueModel.printPairingMs: applies with recorded prints only (trades "recorded" or "auto")',
    ]);
    for (const bad of [-1, 2.5, 60_001, "5"]) {
      const { issues } = read({ type: "conservative", trades: "auto", printPairingMs: bad });
      expect(issues).toHaveLength(1);
      expect(issues[0]).toMatch(/^queueModel\.printPairingMs: /);
    }
  });
});
