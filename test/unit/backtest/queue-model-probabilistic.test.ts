import { describe, expect, it } from "vitest";
import { ConfigReader } from "../../../src/backtest/config-reader.js";
import { Issues } from "../../../src/backtest/errors.js";
import { QueueModel } from "../../../src/backtest/replay/queue-model.js";
import { queueModelSummary, readQueueModel } from "../../../src/backtest/replay/queue-model-config.js";
import {
  cancelFrontShare,
  type ProbFn,
  type QueueModelSpec,
  type TradeSource,
} from "../../../src/backtest/replay/queue-model-spec.js";
import { toWei } from "../../../src/core/wei.js";

const u = (s: string): bigint => toWei(s);
const P = u("0.49");
const prob = (fn: ProbFn, n = 2, trades: TradeSource = "inferred") =>
  ({ type: "probabilistic", fn, n, trades }) as const;

/** One bot bid at 0.49 behind 30 shares, then 10 shares joining behind it: 30 ahead, 10 behind. */
function queued(spec: QueueModelSpec): QueueModel {
  const q = new QueueModel(spec);
  q.join("o1", "T", "buy", P, u("30"));
  q.increase("T", "buy", P);
  return q;
}

describe("cancelFrontShare: hftbacktest's functions, 30 ahead and 10 behind", () => {
  it.each([
    ["power", 2, 0.9], // 30² / (30² + 10²)
    ["power", 1, 0.75], // 30 / 40
    ["power2", 2, 0.9375], // 1 − (10/40)²
    ["power3", 2, 0.5625], // (30/40)²
    ["log", 1, 0.58883], // 1 − ln 11 / (ln 11 + ln 31), sizes in shares
    ["log2", 1, 0.354289], // 1 − ln 11 / ln 41
  ] as const)("%s n=%d → %d", (fn, n, share) => {
    expect(cancelFrontShare(prob(fn, n), 30e6, 10e6)).toBeCloseTo(share, 6);
  });

  it("is 0 with nothing ahead and 1 with nothing behind", () => {
    expect(cancelFrontShare(prob("power"), 0, 10)).toBe(0);
    expect(cancelFrontShare(prob("log"), 10, 0)).toBe(1);
  });
});

describe("QueueModel: cancels attributed by the model", () => {
  it("moves an order up by the front share of a cancel away from the touch, never filling it", () => {
    const aheadAfter = (spec: QueueModelSpec, before: string, to: string) => {
      const q = queued(spec);
      expect(q.decrease("T", "buy", P, u(before), u(to), false)).toBe(0n);
      return q.ahead("o1");
    };
    expect(aheadAfter({ type: "conservative", trades: "inferred" }, "40", "32")).toBe(u("22")); // all 8 ahead
    expect(aheadAfter(prob("power", 2), "40", "32")).toBe(u("22.8")); // 0.9 × 8 = 7.2 ahead
    expect(aheadAfter(prob("power", 1), "40", "32")).toBe(u("24")); // 0.75 × 8 = 6 ahead
    expect(aheadAfter({ type: "riskAverse", trades: "inferred" }, "40", "32")).toBe(u("30")); // all 8 behind
    // 15 cancelled, 10 behind: the 5 the back cannot hold come off the front.
    expect(aheadAfter({ type: "riskAverse", trades: "inferred" }, "40", "25")).toBe(u("25"));
    // Never more ahead than the level holds.
    expect(aheadAfter(prob("power", 2), "40", "0")).toBe(0n);
  });

  it("still takes a decrease at the touch as a trade off the front when trades are inferred", () => {
    const q = queued(prob("power", 2));
    expect(q.decrease("T", "buy", P, u("40"), u("5"), true)).toBe(u("5")); // 35 traded, 30 ahead
    expect(q.ahead("o1")).toBe(0n);
  });
});

describe("QueueModel: recorded trade prints", () => {
  it("consumes the front with prints and nets them out of the book change that carries them", () => {
    const q = queued(prob("power", 2, "recorded"));
    expect(q.trade("T", "buy", P, u("12"))).toBe(0n);
    expect(q.ahead("o1")).toBe(u("18"));
    // The level falls 40 → 25: 12 of it the print, 3 cancelled; behind = 40 − 18 = 22:
    // 3 × 18² / (18² + 22²) = 1.2029703 ahead.
    expect(q.decrease("T", "buy", P, u("40"), u("25"), true)).toBe(0n);
    expect(q.ahead("o1")).toBe(u("18") - 1_202_970n);
    // A decrease at the touch is a cancel here, never a fill.
    expect(q.decrease("T", "buy", P, u("25"), u("20"), true)).toBe(0n);
    // A print reaching past the order's place goes through it.
    const ahead = q.ahead("o1") ?? 0n;
    expect(q.trade("T", "buy", P, u("20"))).toBe(u("20") - ahead);
    expect(q.ahead("o1")).toBe(0n);
  });

  it("forgets pending prints when the level grows (the print was replenished)", () => {
    const q = queued({ type: "conservative", trades: "recorded" });
    q.trade("T", "buy", P, u("5")); // 25 ahead
    q.increase("T", "buy", P);
    q.decrease("T", "buy", P, u("45"), u("40"), false); // 5 cancelled, all ahead (conservative)
    expect(q.ahead("o1")).toBe(u("20"));
  });

  it("fills orders at better prices with the whole print: the aggressor went through them", () => {
    const q = new QueueModel({ type: "conservative", trades: "recorded" });
    q.join("bid50", "T", "buy", u("0.50"), u("5"));
    q.join("ask51", "T", "sell", u("0.51"), u("4"));
    expect(q.trade("T", "buy", u("0.49"), u("7"))).toBe(u("7"));
    expect(q.ahead("bid50")).toBe(0n);
    expect(q.trade("T", "sell", u("0.50"), u("3"))).toBe(0n); // asks at 0.51 are worse than 0.50
    expect(q.trade("T", "sell", u("0.52"), u("3"))).toBe(u("3"));
    expect(q.trade("T", "buy", u("0.51"), u("3"))).toBe(0n); // no bid at 0.51 or better
  });

  it("ignores prints when trades are inferred", () => {
    const q = queued({ type: "conservative", trades: "inferred" });
    expect(q.usesPrints).toBe(false);
    expect(q.trade("T", "buy", P, u("50"))).toBe(0n);
    expect(q.ahead("o1")).toBe(u("30"));
  });

  it("auto: infers trades on a token until it prints, then uses its prints", () => {
    const q = new QueueModel({ type: "conservative", trades: "auto" });
    q.join("a", "T", "buy", P, u("10"));
    q.join("b", "U", "buy", P, u("10"));
    q.increase("T", "buy", P); // 10 ahead, 5 behind
    expect(q.decrease("T", "buy", P, u("15"), u("3"), true)).toBe(u("2")); // inferred: 12 traded
    q.trade("U", "sell", u("0.60"), u("1")); // U has printed (on its other side)
    expect(q.decrease("U", "buy", P, u("10"), u("0"), true)).toBe(0n); // now a cancel
    expect(q.ahead("b")).toBe(0n);
  });
});

describe("queueModel config", () => {
  const read = (v: unknown) => {
    const issues = new Issues();
    const spec = readQueueModel(new ConfigReader(issues), v);
    return { spec, issues: issues.list };
  };

  it("reads names and objects, with defaults", () => {
    expect(read(undefined).spec).toEqual({ type: "conservative", trades: "inferred" });
    expect(read("riskAverse").spec).toEqual({ type: "riskAverse", trades: "inferred" });
    expect(read("probabilistic").spec).toEqual(prob("power", 2));
    expect(read({ type: "probabilistic", fn: "power3", n: 3, trades: "auto" }).spec).toEqual(
      prob("power3", 3, "auto"),
    );
    expect(read({ type: "probabilistic", fn: "log" }).spec).toEqual(prob("log", 1));
  });

  it("lists what is wrong", () => {
    expect(read("fifo").issues).toEqual([
      'queueModel.type: must be one of "conservative", "riskAverse", "probabilistic"',
    ]);
    expect(read({ type: "probabilistic", fn: "log", n: 2, trades: "all" }).issues).toEqual([
      'queueModel.trades: must be one of "inferred", "recorded", "auto"',
      'queueModel.n: applies to the power functions only, not "log"',
    ]);
    expect(read({ type: "conservative", n: 2 }).issues).toEqual(["queueModel.n: unknown setting"]);
    expect(read({ trades: "auto" }).issues).toEqual(["queueModel.type: is required"]);
  });

  it("adds the model to the summary only when it is not the default", () => {
    const c = { prints: 3, printsIgnored: 1, printTrades: 2, printQty: 1_500_000n };
    expect(queueModelSummary({ type: "conservative", trades: "inferred" }, c)).toEqual({});
    expect(queueModelSummary(prob("power", 2, "auto"), c)).toEqual({
      queueModel: { type: "probabilistic", fn: "power", n: 2, trades: "auto" },
      prints: 3,
      printsIgnored: 1,
      printTrades: 2,
      printQuantity: "1.5",
    });
  });
});
