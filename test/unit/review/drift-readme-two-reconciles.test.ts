import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../../../src/config/paths.js";

/**
 * Review 14 (drift): since 7efa6d9 a drift is corrected only once unchanged in consecutive checks AND
 * first seen reconcile.driftSettleMs (30 s) ago, whatever the reconcile period. Two README passages the
 * commit did not touch still promise a correction "within two reconciles" / after "two reconciles":
 * with reconcile.intervalMs 1000 (allowed, and the fault suite's) that is ~31 reconciles; at the
 * default any reconnect / order_ended / ambiguous run in between adds more. An operator sizing the
 * time a wrong position (missed fill, baseline `zero`) holds the caps and PnL reads the wrong bound.
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
