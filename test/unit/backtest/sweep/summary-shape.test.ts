import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queueModelSummary } from "../../../../src/backtest/replay/queue-model-config.js";
import type { ReplayConfig } from "../../../../src/backtest/replay/replay-config.js";
import { parseReplayConfig } from "../../../../src/backtest/replay/replay-config.js";
import { runBacktest } from "../../../../src/backtest/replay/run-backtest.js";
import { latencySummary } from "../../../../src/backtest/sim/latency.js";
import { type PathStep, pathText } from "../../../../src/backtest/sweep/json-path.js";
import { numeric, parseMetric } from "../../../../src/backtest/sweep/metric.js";
import {
  checkPath,
  type SummaryContext,
  type SummaryKind,
} from "../../../../src/backtest/sweep/summary-shape.js";
import { runSynthetic } from "../../../../src/backtest/synthetic/run-synthetic.js";
import { parseScenario } from "../../../../src/backtest/synthetic/scenario.js";
import { TICK_DOWN, writeSteps } from "../../../integration/backtest/support/crafted.js";

/*
 * A --rank-by path is checked against the fields a summary of its kind can have before any point
 * runs (a typo no longer costs the first point's run). The shape is written by hand beside the
 * summary builders, so it is pinned here against real summaries, leaf by leaf: every number in
 * them is a number of the shape, and every other leaf (an id, a name, a time, a flag) is refused
 * as text — or a field added to a summary would be refused as a rank-by, or accepted and rank
 * nothing. The parts that echo settings (the strategy, latencies, the queue model) come from the
 * run's own settings, as `mm backtest --sweep` builds them (SummaryContext).
 */

/** Every path in a JSON value with its value: each container and each leaf, every element of every list. */
function allPaths(
  v: unknown,
  steps: PathStep[] = [],
  out: [PathStep[], unknown][] = [],
): [PathStep[], unknown][] {
  if (steps.length > 0) out.push([steps, v]);
  if (Array.isArray(v)) for (const [i, x] of v.entries()) allPaths(x, [...steps, i], out);
  else if (typeof v === "object" && v !== null)
    for (const [k, x] of Object.entries(v)) allPaths(x, [...steps, k], out);
  return out;
}

/** The paths whose check disagrees with the value found there (empty when the shape fits). */
const misfits = (summary: unknown, kind: SummaryKind, ctx: SummaryContext) =>
  allPaths(JSON.parse(JSON.stringify(summary))).flatMap(([steps, v]) => {
    const check = checkPath(steps, kind, ctx);
    const problem = "problem" in check ? check.problem : undefined;
    const container = typeof v === "object" && v !== null;
    const isNumber = !container && (v === null || numeric(v) !== undefined);
    const isId = typeof steps[steps.length - 1] === "string" && /Id$/.test(steps[steps.length - 1] as string);
    let ok: boolean;
    // null is a missing number (a Sharpe, a mark) or missing text (a description): either fits.
    if (v === null) ok = problem === undefined || /is text/.test(problem);
    else if (container) ok = problem !== undefined && !/has no |elements? in this sweep/.test(problem);
    else if (isNumber && !isId) ok = problem === undefined;
    else ok = problem !== undefined && /is text/.test(problem);
    return ok ? [] : [[pathText(steps), JSON.stringify(v), problem ?? "accepted"]];
  });

let dir: string;
let data: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "mm-summary-shape-"));
  data = join(dir, "steps.jsonl.gz");
  await writeSteps(data, TICK_DOWN);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const read = (f: string): unknown => JSON.parse(readFileSync(join("config/backtest", f), "utf8"));

const replayContext = (config: ReplayConfig): SummaryContext => ({
  strategies: [config.strategyRaw],
  horizons: config.report.markoutsMs.length,
  latency: latencySummary(config.latency),
  queueModel: queueModelSummary(config.queueModel, {
    prints: 0,
    printsIgnored: 0,
    printTrades: 0,
    printQty: 0n,
  }),
  tokens: config.tokens?.length,
});

const BANDS = { name: "bands", params: { bands: [{ margin: "0.01", size: "10" }] } };

describe("the summary shapes a --rank-by path is checked against", () => {
  it("fit a real replay summary leaf by leaf (with the venue-realistic overlay's queue model and latencies)", async () => {
    const config = parseReplayConfig([{ strategy: BANDS, startLeadMs: 5_000 }, read("venue-realistic.json")]);
    const { summary } = await runBacktest({ config, data });
    expect(summary.mirror).toHaveProperty("queueModel");
    expect(summary.strategy).toEqual(BANDS);
    expect(misfits(summary, "replay", replayContext(config))).toEqual([]);
    // And a default one: no queue model keys in the mirror, so none is accepted.
    const plain = parseReplayConfig([{ strategy: BANDS, startLeadMs: 5_000 }]);
    const r = await runBacktest({ config: plain, data });
    expect(misfits(r.summary, "replay", replayContext(plain))).toEqual([]);
  });

  it("fit a real synthetic summary leaf by leaf (an unbounded mid: with its clamped counts)", async () => {
    const sc = parseScenario([
      {
        seed: 5,
        paths: 2,
        process: { s0: "0.5", sigma: 0.002, dtMs: 1_000, horizonMs: 130_000, bounded: false },
        fills: { A: 0.5, k: 200, probability: "exponential", size: "1" },
        market: { tick: "0.000001", minSize: "0.000001" },
        strategy: { name: "avellaneda-stoikov", params: { gamma: 5, k: 200, orderSize: "1", sigma: 0.002 } },
        wallet: { usdc: "100", shares: "100" },
      },
    ]);
    const { summary } = await runSynthetic(sc);
    expect(summary.process).toHaveProperty("clamped");
    const ctx = {
      strategies: [sc.strategyRaw],
      horizons: sc.report.markoutsMs.length,
      paths: sc.paths,
      bounded: false,
    };
    expect(misfits(summary, "synthetic", ctx)).toEqual([]);
    // A bounded run's summary has no clamped counts: the path is refused before any point runs.
    expect(checkPath(["process", "clamped", "steps"], "synthetic", { ...ctx, bounded: true })).toEqual({
      problem:
        "the synthetic summary has no process.clamped (process holds s0, sigma, dtMs, horizonMs, increments, bounded)",
    });
  });

  it("refuse, before any point runs, a path no summary of the kind has, saying what is there", () => {
    const problem = (text: string, kind: SummaryKind, ctx?: SummaryContext) => {
      try {
        parseMetric(text, kind, ctx);
        return undefined;
      } catch (err) {
        return (err as Error).message;
      }
    };
    expect(problem("pnl.totl", "replay")).toBe(
      'rank-by "pnl.totl": neither a metric (pnl, realised, unrealised, sharpe, maxDrawdown, fills, makerVolume, takerVolume, fees, uptime) nor a number of the replay summary: the replay summary has no pnl.totl (pnl holds total, realised, unrealised, cash)',
    );
    expect(problem("sharp", "synthetic")).toMatch(
      /the synthetic summary has no sharp \(the summary holds mm, kind, description, .*perPath\)$/,
    );
    expect(problem("markouts.perShare", "replay")).toMatch(
      /markouts is a list: pick an element, e.g. markouts\[0\]$/,
    );
    expect(problem("quoteUptime.mean", "replay")).toMatch(
      /quoteUptime is a single value, with nothing inside it$/,
    );
    expect(problem("pnl[0]", "synthetic")).toMatch(/pnl is not a list$/);
    // What used to wait for the first result: a part, or text, where a number is wanted.
    expect(problem("fillModel", "synthetic")).toMatch(/fillModel is not a number but a part of the summary/);
    expect(problem("fillModel.probability", "synthetic")).toMatch(/fillModel.probability is text/);
    expect(problem("tokens[0].tokenId", "replay")).toMatch(/tokens\[0\]\.tokenId is text/);
    expect(problem("description", "synthetic")).toMatch(/description is text/);
  });

  it("know the settings' parts from the run's context: strategy parameters, reject codes, latencies, the queue model", () => {
    const problem = (text: string, kind: SummaryKind, ctx: SummaryContext) => {
      try {
        parseMetric(text, kind, ctx);
        return undefined;
      } catch (err) {
        return (err as Error).message;
      }
    };
    const as = { name: "avellaneda-stoikov", params: { gamma: 5, k: 200, variant: "inventory" } };
    const synthetic: SummaryContext = {
      strategies: [as, { ...as, params: { ...as.params, gamma: 1 } }],
      horizons: 3,
      paths: 4,
    };
    expect(problem("strategy.params.gamma", "synthetic", synthetic)).toBeUndefined();
    expect(problem("strategy.params.gama", "synthetic", synthetic)).toMatch(
      /has no strategy\.params\.gama \(strategy\.params holds gamma, k, variant\)$/,
    );
    expect(problem("strategy.params.variant", "synthetic", synthetic)).toMatch(/is text/);
    expect(problem("perPath[3].pnl", "synthetic", synthetic)).toBeUndefined();
    expect(problem("perPath[4].pnl", "synthetic", synthetic)).toMatch(/perPath has 4 elements in this sweep/);
    expect(problem("acrossPaths.markouts[3].total.mean", "synthetic", synthetic)).toMatch(/has 3 elements/);

    const config = parseReplayConfig([{ strategy: BANDS }, read("venue-realistic.json")]);
    const replay = replayContext(config);
    expect(problem("strategy.params.bands[0].margin", "replay", replay)).toBeUndefined();
    expect(problem("strategy.params.bands[1].margin", "replay", replay)).toMatch(
      /strategy\.params\.bands has 1 element/,
    );
    expect(problem("latency.feedMs.medianMs", "replay", replay)).toBeUndefined();
    expect(problem("latency.feedMs.meanMs", "replay", replay)).toMatch(
      /has no latency\.feedMs\.meanMs \(latency\.feedMs holds type, medianMs, sigma\)/,
    );
    expect(problem("mirror.queueModel.n", "replay", replay)).toBeUndefined();
    expect(problem("mirror.printTrades", "replay", replay)).toBeUndefined();
    const plain = replayContext(parseReplayConfig([{ strategy: BANDS }]));
    expect(problem("mirror.printTrades", "replay", plain)).toMatch(/has no mirror\.printTrades/);
    expect(problem("latency.feedMs", "replay", plain)).toBeUndefined(); // a constant: a number
    // A count by code: every code the venue can give is known, one that never happened reads 0.
    const code = parseMetric("orders.rejectCodes.insufficient_funds", "replay", plain);
    expect(code.read({ orders: { rejectCodes: {} } })?.toFixed()).toBe("0");
    expect(code.read({ orders: { rejectCodes: { insufficient_funds: 3 } } })?.toFixed()).toBe("3");
    expect(problem("orders.rejectCodes.insufficient_balance", "replay", plain)).toMatch(
      /has no orders\.rejectCodes\.insufficient_balance \(orders\.rejectCodes holds invalid_amounts, .*insufficient_funds, matcher_error\)/,
    );
    expect(problem("data.rejected.book_bad_seq", "replay", plain)).toBeUndefined();
    expect(problem("mirror.rejected.not_cancellable", "replay", plain)).toBeUndefined();
    expect(parseMetric("data.printsMissed.count", "replay", plain).read({ data: {} })?.toFixed()).toBe("0");
    // A number a summary may lack (a list the data sizes) reads as no value: it ranks last.
    expect(
      parseMetric("data.gaps.longest[0].ms", "replay", plain).read({ data: { gaps: { longest: [] } } }),
    ).toBeUndefined();
  });
});
