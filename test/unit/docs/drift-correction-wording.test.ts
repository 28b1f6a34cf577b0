import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../../../src/config/paths.js";

/**
 * README: how soon a position drift is corrected. A drift is corrected once unchanged in consecutive
 * checks AND first seen reconcile.driftSettleMs ago, with no fill of its token younger than that,
 * whatever the reconcile period: not "within two reconciles" (at reconcile.intervalMs 1000 that is
 * about 31). An operator sizing how long a wrong position (a missed fill, baseline `zero`) holds the
 * caps and PnL reads the bound from these passages.
 */
const README = readFileSync(join(packageRoot(), "README.md"), "utf8");

function lineWith(fragment: string): string {
  const l = README.split("\n").find((x) => x.includes(fragment));
  if (l === undefined) throw new Error(`README: no line with ${fragment}`);
  return l;
}

describe("README: how soon a position drift is corrected", () => {
  it("the inventory-compaction premise does not promise a correction within two reconciles", () => {
    const l = lineWith("the fill is missed by");
    const next = README.split("\n")[README.split("\n").indexOf(l) + 1] ?? "";
    expect(`${l} ${next}`).not.toMatch(/within two reconciles/);
  });

  it('the `inventoryBaseline: "zero"` Assumptions row does not say the correction takes two reconciles', () => {
    expect(lineWith('| holding with `inventoryBaseline: "zero"` |')).not.toMatch(/\(two reconciles\)/);
  });
});
