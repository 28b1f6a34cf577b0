import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { withLayerFiles } from "../../../src/backtest/config-reader.js";
import { parseReplayConfig } from "../../../src/backtest/replay/replay-config.js";
import { parseScenario } from "../../../src/backtest/synthetic/scenario.js";
import { runBacktestCli } from "../../integration/backtest/support/cli.js";

/*
 * Several --config (or --scenario) files are layered before they are checked, so "backtest config
 * is invalid: markets.tikc: unknown setting" left the reader to search every file for the key.
 * Each problem now names the file whose value the layering kept.
 */

const message = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error("accepted");
};

const STRATEGY = { name: "bands", params: { bands: [{ margin: "0.01", size: "10" }] } };

describe("a refused layered config", () => {
  it("names after each problem the file that set the field, the later file where both did", () => {
    const files = ["/cfg/base.json", "/cfg/over.json"];
    const layers = [
      { strategy: STRATEGY, startLeadMs: -1, markets: { tick: "0.01" } },
      { startLeadMs: -2, markets: { tikc: "0.01" } },
    ];
    expect(message(() => withLayerFiles(files, layers, () => parseReplayConfig(layers)))).toBe(
      "backtest config is invalid:\n" +
        "  markets.tikc: unknown setting (in /cfg/over.json)\n" +
        "  startLeadMs: must be >= 0 (in /cfg/over.json)",
    );
    const base = [{ ...layers[0], startLeadMs: 0, stratgy: {} }, { markets: { tick: "0.01" } }];
    expect(message(() => withLayerFiles(files, base, () => parseReplayConfig(base)))).toBe(
      "backtest config is invalid:\n  stratgy: unknown setting (in /cfg/base.json)",
    );
  });

  it("likewise for scenarios; a problem of no single field, or of a single file, is left as it was", () => {
    const files = ["a.json", "b.json"];
    const layers = [{ process: { dtMs: 1_000 } }, { process: { horizonMs: 1_500 }, seeed: 1 }];
    // "is required": no file has it, so none is named.
    expect(message(() => withLayerFiles(files, layers, () => parseScenario(layers)))).toBe(
      "scenario is invalid:\n" +
        "  seeed: unknown setting (in b.json)\n" +
        "  strategy: is required\n" +
        "  fills: is required\n" +
        "  process.horizonMs: must be a whole number of dtMs steps (1000 ms) (in b.json)",
    );
    const one = [layers[1]];
    expect(message(() => withLayerFiles(["b.json"], one, () => parseScenario(one)))).not.toContain("(in ");
  });
});

describe("a refused layered config whose later file replaced a part whole", () => {
  it("names the file of the replacement, the one the field is missing from (none when no part of it is there)", () => {
    const files = ["base.json", "over.json"];
    const layers = [
      { strategy: STRATEGY, latency: { feedMs: { type: "lognormal", medianMs: 50, sigma: 0.4 } } },
      { latency: { feedMs: { type: "constant" } } },
    ];
    // over.json's constant feedMs replaced base.json's lognormal one whole: its `ms` is missing there.
    expect(message(() => withLayerFiles(files, layers, () => parseReplayConfig(layers)))).toMatch(
      /latency\.feedMs\.ms: [^\n]* \(in over\.json\)$/m,
    );
    const top = [{ process: { dtMs: 1_000 } }, { process: { horizonMs: 2_000 } }];
    // No layer has a strategy at all: nobody to name.
    expect(message(() => withLayerFiles(files, top, () => parseScenario(top)))).toMatch(
      /^ {2}strategy: is required$/m,
    );
  });
});

describe("mm backtest with layered files, one of them bad", () => {
  it("names the file, for a single run and for a sweep (refused before anything runs)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mm-config-layers-"));
    try {
      const bad = join(dir, "overlay.json");
      writeFileSync(bad, JSON.stringify({ markets: { tikc: "0.01" } }));
      const replay = ["--config", "config/backtest/bands-replay.json", "--config", bad, "--data", dir];
      const sweep = ["--sweep", "config/backtest/bands-sweep.json", "--progress", "none"];
      for (const argv of [replay, [...replay, ...sweep]]) {
        const r = await runBacktestCli(...argv);
        expect(r.code).toBe(2);
        expect(r.stderr).toContain(`markets.tikc: unknown setting (in ${bad})`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
