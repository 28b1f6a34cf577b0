import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseReplayConfig } from "../../../../src/backtest/replay/replay-config.js";
import { runBacktest } from "../../../../src/backtest/replay/run-backtest.js";
import { type PathStep, pathText } from "../../../../src/backtest/sweep/json-path.js";
import { parseMetric } from "../../../../src/backtest/sweep/metric.js";
import { pathProblem } from "../../../../src/backtest/sweep/summary-shape.js";
import { runSynthetic } from "../../../../src/backtest/synthetic/run-synthetic.js";
import { parseScenario } from "../../../../src/backtest/synthetic/scenario.js";
import { TICK_DOWN, writeSteps } from "../../../integration/backtest/support/crafted.js";

/*
 * A --rank-by path is checked against the fields a summary of its kind can have before any point
 * runs (a typo no longer costs the first point's run). The shape is written by hand beside the
 * summary builders, so it is pinned here against real summaries: every path in them is accepted,
 * or a field added to a summary would be refused as a rank-by.
 */

/** Every path in a JSON value: each container and each leaf, every element of every list. */
function allPaths(v: unknown, steps: PathStep[] = [], out: PathStep[][] = []): PathStep[][] {
  if (steps.length > 0) out.push(steps);
  if (Array.isArray(v)) for (const [i, x] of v.entries()) allPaths(x, [...steps, i], out);
  else if (typeof v === "object" && v !== null)
    for (const [k, x] of Object.entries(v)) allPaths(x, [...steps, k], out);
  return out;
}

const accepted = (summary: unknown, kind: "replay" | "synthetic") =>
  allPaths(JSON.parse(JSON.stringify(summary)))
    .map((p) => [pathText(p), pathProblem(p, kind)])
    .filter(([, problem]) => problem !== undefined);

let dir: string;
let data: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "mm-summary-shape-"));
  data = join(dir, "steps.jsonl.gz");
  await writeSteps(data, TICK_DOWN);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const read = (f: string): unknown => JSON.parse(readFileSync(join("config/backtest", f), "utf8"));

describe("the summary shapes a --rank-by path is checked against", () => {
  it("accept every path of a real replay summary (with the venue-realistic overlay's queue model and latencies)", async () => {
    const config = parseReplayConfig([
      {
        strategy: { name: "bands", params: { bands: [{ margin: "0.01", size: "10" }] } },
        startLeadMs: 5_000,
      },
      read("venue-realistic.json"),
    ]);
    const { summary } = await runBacktest({ config, data });
    expect(summary.mirror).toHaveProperty("queueModel");
    expect(accepted(summary, "replay")).toEqual([]);
  });

  it("accept every path of a real synthetic summary (an unbounded mid: with its clamped counts)", async () => {
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
    expect(accepted(summary, "synthetic")).toEqual([]);
  });

  it("refuse, before any point runs, a path no summary of the kind has, saying what is there", () => {
    const problem = (text: string, kind: "replay" | "synthetic") => {
      try {
        parseMetric(text, kind);
        return undefined;
      } catch (err) {
        return (err as Error).message;
      }
    };
    expect(problem("pnl.totl", "replay")).toBe(
      'rank-by "pnl.totl": neither a metric (pnl, realised, unrealised, sharpe, maxDrawdown, fills, makerVolume, takerVolume, fees, uptime) nor a field of the replay summary: the replay summary has no pnl.totl (pnl holds total, realised, unrealised, cash)',
    );
    expect(problem("sharp", "synthetic")).toMatch(
      /the synthetic summary has no sharp \(the summary holds mm, version, kind, .*perPath\)$/,
    );
    expect(problem("markouts.perShare", "replay")).toMatch(
      /markouts is a list: pick an element, e.g. markouts\[0\]$/,
    );
    expect(problem("quoteUptime.mean", "replay")).toMatch(
      /quoteUptime is a single value, with nothing inside it$/,
    );
    expect(problem("pnl[0]", "synthetic")).toMatch(/pnl is not a list$/);
    // What the shape cannot judge is left to the first result: open parts, and known non-numbers.
    expect(problem("strategy.params.gamma", "synthetic")).toBeUndefined();
    expect(problem("orders.rejectCodes.insufficient_balance", "replay")).toBeUndefined();
    expect(problem("fillModel", "synthetic")).toBeUndefined();
    expect(problem("tokens[3].pnl.total", "replay")).toBeUndefined();
  });
});
