import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../../../src/config/paths.js";
import { CATALOGUE } from "../observability/catalogue.js";

/*
 * README's Metrics table is what an operator writes queries and alerts from. The metrics tests
 * hold the registry to CATALOGUE (test/unit/observability/catalogue.ts) in both directions; this
 * holds the table to it, so that a family added, renamed or relabelled cannot leave the table
 * behind (a new gauge exported but never listed, a row naming a label the family lacks).
 */

const README = readFileSync(join(packageRoot(), "README.md"), "utf8");

/** name → [type, label names sorted] from the table's rows (`| \`mm_…\` | type | labels | meaning |`). */
function tableRows(): Map<string, [string, string[]]> {
  const out = new Map<string, [string, string[]]>();
  for (const m of README.matchAll(/^\| `(mm_[a-z_]+)` \| ([a-z]+) \| ([^|]*) \|/gm)) {
    const name = m[1] as string;
    expect(out.has(name), `${name} has one row`).toBe(false);
    const cell = (m[3] as string).trim();
    const labels = cell === "—" ? [] : [...cell.matchAll(/`([a-z_]+)`/g)].map((l) => l[1] as string);
    out.set(name, [m[2] as string, labels.sort()]);
  }
  return out;
}

describe("README Metrics table", () => {
  it("lists every mm_ family with its type and labels, and nothing else", () => {
    const rows = tableRows();
    expect(Object.fromEntries(rows)).toEqual(
      Object.fromEntries(Object.entries(CATALOGUE).map(([n, [type, labels]]) => [n, [type, [...labels]]])),
    );
    expect(rows.get("mm_exchange_clock_offset_seconds")).toEqual(["gauge", []]);
  });
});
