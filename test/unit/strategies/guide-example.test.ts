import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../../../src/config/paths.js";
import { configureStrategy } from "../../../strategies/registry.js";
import type { Strategy } from "../../../strategies/types.js";
import { book, compact, context, issuesOf, M } from "./helpers.js";
import { skewedMid } from "./support/example-strategy.js";
import { inventorySkewProperty, sizeArb, strategyProperties } from "./support/properties.js";

/*
 * strategies/README.md "Writing a strategy" shows test/unit/strategies/support/example-strategy.ts:
 * the block shown must be that file, and the file must pass the shared-rules properties the
 * shipped strategies pass (test/integration/backtest/custom-strategy.test.ts runs it on the capture).
 */

const EXAMPLE = "test/unit/strategies/support/example-strategy.ts";

/** The ```ts block of the guide whose first line names `path`, without that line. */
function guideBlock(readme: string, path: string): string | undefined {
  const blocks = readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm);
  for (const [, body] of blocks) {
    const [first, ...rest] = (body ?? "").split("\n");
    if (first === `// ${path}`) return rest.join("\n");
  }
  return undefined;
}

describe("the guide's example strategy", () => {
  it("is the code of the example file, verbatim", () => {
    const readme = readFileSync(join(packageRoot(), "strategies/README.md"), "utf8");
    const file = readFileSync(join(packageRoot(), EXAMPLE), "utf8");
    expect(guideBlock(readme, EXAMPLE)).toBe(file);
  });

  it("quotes the worked example: long 2 lots moves both quotes down 0.01", () => {
    const s = configureStrategy(skewedMid, { halfSpread: "0.02", orderSize: "10", skewPerLot: 0.005 });
    const b = book([[0.49, 5]], [[0.51, 5]]);
    expect(compact(s.quote(context(b)))).toEqual([
      ["buy", 0, 0.48, 10],
      ["sell", 0, 0.52, 10],
    ]);
    expect(compact(s.quote(context(b, { inventory: 20n * M })))).toEqual([
      ["buy", 0, 0.47, 10],
      ["sell", 0, 0.51, 10],
    ]);
  });

  it("lists every bad parameter at once, as the guide shows", () => {
    expect(issuesOf(() => skewedMid.parseParams({ halfSpread: 0.01, skewPerLot: -1, size: "10" }))).toEqual([
      'halfSpread: must be a decimal string like "0.01"',
      "skewPerLot: must be ≥ 0",
      "orderSize: required (a decimal string)",
      "size: unknown parameter",
    ]);
  });
});

const paramsArb = fc.record(
  {
    halfSpread: fc.integer({ min: 1, max: 499_999 }).map((n) => (n / 1_000_000).toFixed(6)),
    orderSize: sizeArb,
    skewPerLot: fc.double({ min: 0, max: 0.5, noNaN: true }),
  },
  { requiredKeys: ["halfSpread", "orderSize"] },
);

strategyProperties(skewedMid as Strategy<unknown>, paramsArb);
inventorySkewProperty(skewedMid as Strategy<unknown>, paramsArb);
