import { describe, expect, it } from "vitest";
import { withLayerFiles } from "../../../src/backtest/config-reader.js";
import { parseReplayConfig } from "../../../src/backtest/replay/replay-config.js";

/*
 * Review (s19, r2bt): withLayerFiles names "the last layer holding the field". But the layering
 * replaces `strategy`, arrays and model objects (a latency distribution: an object with `type`)
 * whole, so a field the later file LEFT OUT of its replacement is still held by the earlier file,
 * which is then blamed: "latency.feedMs.sigma: is required (in base.json)" when base.json's sigma
 * is right there and the later file's feedMs dropped it. The operator is sent to the one file
 * that is fine. A field absent from the layered result must not be pinned on a layer that had it
 * (name the file whose whole replacement left it out, or none).
 */

const message = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error("accepted");
};

describe("a layered config whose later file replaces a part whole", () => {
  it("does not blame the earlier file for a field the later file's replacement dropped", () => {
    const files = ["/cfg/base.json", "/cfg/over.json"];
    const layers = [
      {
        strategy: { name: "bands", params: { reference: "mid", bands: [{ margin: "0.01", size: "10" }] } },
        latency: { feedMs: { type: "lognormal", medianMs: 50, sigma: 0.4 } },
      },
      {
        strategy: { name: "bands", params: { reference: "mid" } },
        latency: { feedMs: { type: "lognormal", medianMs: 60 } },
      },
    ];
    const text = message(() => withLayerFiles(files, layers, () => parseReplayConfig(layers)));
    expect(text).toMatch(/latency\.feedMs\.sigma: is required/);
    expect(text).toMatch(/strategy\.params\.bands: /);
    // base.json holds a valid sigma and bands; the problem is over.json's replacement.
    expect(text).not.toContain("(in /cfg/base.json)");
  });
});
