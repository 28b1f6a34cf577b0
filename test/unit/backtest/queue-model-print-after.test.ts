import { describe, expect, it } from "vitest";
import { PRINT_PAIRING_MS, QueueModel } from "../../../src/backtest/replay/queue-model.js";
import type { QueueModelSpec } from "../../../src/backtest/replay/queue-model-spec.js";
import { toWei } from "../../../src/core/wei.js";

const u = (s: string): bigint => toWei(s);
const P = u("0.49");

const SPECS: [string, QueueModelSpec][] = [
  ["conservative", { type: "conservative", trades: "recorded" }],
  ["riskAverse", { type: "riskAverse", trades: "recorded" }],
  ["probabilistic power 2", { type: "probabilistic", fn: "power", n: 2, trades: "recorded" }],
  ["probabilistic log (auto, token printed)", { type: "probabilistic", fn: "log", n: 1, trades: "auto" }],
];

/** A bot bid of 10 at 0.49 behind 30 recorded shares, 20 more joining behind it: 30 ahead, 20 behind. */
function queued(spec: QueueModelSpec): QueueModel {
  const q = new QueueModel(spec);
  q.join("o1", "T", "buy", P, u("30"), { remaining: u("10") });
  q.increase("T", "buy", P);
  q.trade("T", "sell", u("0.60"), u("1"), 0); // the token prints (for "auto"), away from the bid
  return q;
}

type Step = { readonly print: string } | { readonly decrease: readonly [string, string] };

/** Runs the steps at time `at` each; what they filled in all and the order's place after. */
function run(spec: QueueModelSpec, steps: readonly Step[], at: readonly number[] = []) {
  const q = queued(spec);
  let filled = 0n;
  steps.forEach((s, i) => {
    const t = at[i] ?? 1_000;
    if ("print" in s) filled += q.trade("T", "buy", P, u(s.print), t);
    else filled += q.decrease("T", "buy", P, u(s.decrease[0]), u(s.decrease[1]), true, t);
  });
  return { filled, ahead: q.ahead("o1") };
}

describe("QueueModel: a print that arrives after the book change that carried it", () => {
  describe.each(SPECS)("%s", (_, spec) => {
    it("moves the queue once, as the print arriving first does (print smaller than the place)", () => {
      const first = run(spec, [{ print: "12" }, { decrease: ["50", "38"] }]);
      expect(first).toEqual({ filled: 0n, ahead: u("18") });
      expect(run(spec, [{ decrease: ["50", "38"] }, { print: "12" }])).toEqual(first);
    });

    it("fills at the print, as far as the print arriving first would (print past the place)", () => {
      const first = run(spec, [{ print: "35" }, { decrease: ["50", "15"] }]);
      expect(first).toEqual({ filled: u("5"), ahead: 0n });
      expect(run(spec, [{ decrease: ["50", "15"] }, { print: "35" }])).toEqual(first);
    });

    it("pairs a decrease with several prints, and a cancel riding on the same change", () => {
      // 8 + 4 traded, 6 cancelled in the same change of the level.
      const first = run(spec, [{ print: "8" }, { print: "4" }, { decrease: ["50", "32"] }]);
      expect(run(spec, [{ decrease: ["50", "32"] }, { print: "8" }, { print: "4" }])).toEqual(first);
      expect(run(spec, [{ print: "8" }, { decrease: ["50", "32"] }, { print: "4" }])).toEqual(first);
    });

    it("pairs within the window, not beyond it", () => {
      const first = run(spec, [{ print: "12" }, { decrease: ["50", "38"] }]);
      const late = [{ decrease: ["50", "38"] }, { print: "12" }] as const;
      expect(run(spec, late, [1_000, 1_000 + PRINT_PAIRING_MS])).toEqual(first);
      // Later than that it is another trade: it moves the queue again (riskAverse put the cancel
      // behind the order, so there it moves it only once either way).
      const apart = run(spec, late, [1_000, 1_001 + PRINT_PAIRING_MS]);
      expect(apart.ahead).toBeLessThanOrEqual(first.ahead ?? 0n);
      if (spec.type === "conservative") expect(apart.ahead).toBe(u("6"));
    });
  });

  it("leaves the print that came first unchanged: the decrease after it is netted, once", () => {
    const spec: QueueModelSpec = { type: "conservative", trades: "recorded" };
    // The print, its change, then a print of a trade whose change has not come yet: that one moves.
    expect(run(spec, [{ print: "12" }, { decrease: ["50", "38"] }, { print: "5" }])).toEqual({
      filled: 0n,
      ahead: u("13"),
    });
  });

  it("does not pair a decrease already netted by an earlier print", () => {
    const spec: QueueModelSpec = { type: "conservative", trades: "recorded" };
    // 12 printed then its change: nothing of the change is left for the next print to explain.
    const r = run(spec, [{ print: "12" }, { decrease: ["50", "38"] }, { print: "3" }]);
    expect(r.ahead).toBe(u("15"));
  });

  it("does not pair a decrease with a print at another price or side", () => {
    const spec: QueueModelSpec = { type: "conservative", trades: "recorded" };
    const q = queued(spec);
    q.decrease("T", "buy", P, u("50"), u("38"), true, 1_000); // 12 cancelled ahead: 18
    q.trade("T", "sell", P, u("12"), 1_000); // a buyer's print against asks at 0.49: not this level
    expect(q.ahead("o1")).toBe(u("18"));
    q.trade("T", "buy", u("0.48"), u("12"), 1_000); // a seller through 0.49 to 0.48: the bid was passed
    expect(q.ahead("o1")).toBe(0n);
  });
});
