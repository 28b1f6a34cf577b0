import { describe, expect, it } from "vitest";
import { syntheticReportHtml } from "../../../src/backtest/report/html/report.js";
import { runSynthetic } from "../../../src/backtest/synthetic/run-synthetic.js";
import { parseScenario } from "../../../src/backtest/synthetic/scenario.js";

/** A short unbounded scenario whose mid starts near 0 and moves far (σ√T ≈ 0.045 over 20 s). */
const NEAR_EDGE = {
  seed: 3,
  paths: 4,
  process: { s0: "0.01", sigma: 0.01, dtMs: 1_000, horizonMs: 20_000, increments: "normal", bounded: false },
  fills: { A: 0.5, k: 200, probability: "exponential", size: "1" },
  market: { tick: "0.000001", minSize: "0.000001" },
  strategy: { name: "avellaneda-stoikov", params: { gamma: 5, k: 200, orderSize: "1", sigma: 0.01 } },
  wallet: { usdc: "100", shares: "100" },
};

/** The HTML between the Summary heading and the end of its section. */
function summarySection(html: string): string {
  const m = /<section id="summary">([\s\S]*?)<\/section>/.exec(html);
  if (m === null) throw new Error("no summary section");
  return m[1] as string;
}

// The JSON summary's `process.clamped` and mm backtest's stderr warning said that an unbounded mid
// left (0, 1) and the book showed it at the edge, but the HTML report — the page a reader keeps —
// only had it inside the collapsed JSON: its charts and figures looked like the process asked for.
describe("the synthetic HTML report of an unbounded mid", () => {
  it("warns in the summary section when the mid left what the book can show", async () => {
    const sc = parseScenario([NEAR_EDGE]);
    const r = await runSynthetic(sc);
    const c = r.summary.process.clamped;
    expect(c?.steps).toBeGreaterThan(0);
    const summary = summarySection(await syntheticReportHtml(sc, r));
    expect(summary).toContain(
      `<p class="warn" role="alert">Warning: the unbounded mid lay outside [0.000002, 0.999998] on ${c?.steps} steps of ${c?.paths} of 4 paths; the book showed it at the edge (summary process.clamped).</p>`,
    );
    // Above the figures it qualifies.
    expect(summary.indexOf('class="warn"')).toBeLessThan(summary.indexOf("<h3>Across"));
  });

  it("says nothing when the mid stayed inside, nor for a bounded run", async () => {
    for (const process of [
      { ...NEAR_EDGE.process, s0: "0.5", sigma: 0.001 },
      { ...NEAR_EDGE.process, bounded: true },
    ]) {
      const sc = parseScenario([{ ...NEAR_EDGE, paths: 2, process }]);
      const html = await syntheticReportHtml(sc, await runSynthetic(sc));
      expect(html).not.toContain('class="warn"');
      expect(html).not.toContain("Warning:");
    }
  });
});

describe("the synthetic HTML report of a bounded mid", () => {
  it("says in its header the range a bounded mid is reflected in, [tick, 1 − tick], as the scenario docs do", async () => {
    const header = async (market: object) => {
      const process = { ...NEAR_EDGE.process, s0: "0.5", sigma: 0.001, bounded: true };
      const sc = parseScenario([{ ...NEAR_EDGE, paths: 1, process, market }]);
      return /Monte-Carlo path\(s\)[^<]*/.exec(await syntheticReportHtml(sc, await runSynthetic(sc)))?.[0];
    };
    expect(await header({ tick: "0.01", minSize: "1" })).toContain(
      "increments, reflected inside [0.01, 0.99]; fills",
    );
    // A 1-micro tick: never nearer an edge than the book's micro-unit either side of its mid.
    expect(await header(NEAR_EDGE.market)).toContain("reflected inside [0.000002, 0.999998]");
  });
});
