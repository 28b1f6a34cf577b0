import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../../../src/config/paths.js";

/*
 * The READMEs send a reader to files: `src/journal/temp-copies.ts`, `config/backtest/as-paper.json`,
 * `test/unit/docs/report-example.test.ts`… assumptions-where*.test.ts checks that the Assumptions
 * rows name the files holding each rule; nothing checked that every other path named still exists
 * after a file is moved or split (a README walk, session 21, checked them by hand). A path is
 * resolved against the package root, else beside the README naming it; an ESM import specifier's
 * `.js` is its `.ts` source. `config/live.json` is the operator's own copy of live.example.json.
 */

const ROOT = packageRoot();
const DOCS = ["README.md", "config/backtest/README.md", "strategies/README.md"];
const NOT_SHIPPED = new Set(["config/live.json"]);

/** The repository paths a Markdown file names (src/, test/, config/, strategies/, bin/, .ci/). */
function namedPaths(text: string): string[] {
  const found = text.match(/(?<![\w./-])(?:src|test|config|strategies|bin|\.ci)\/[\w./-]*[\w/]/g) ?? [];
  return [...new Set(found)].filter((p) => !p.includes("*") && !NOT_SHIPPED.has(p));
}

function exists(doc: string, p: string): boolean {
  const bases = [ROOT, join(ROOT, doc, "..")];
  const candidates = p.endsWith(".js") ? [p, `${p.slice(0, -3)}.ts`] : [p];
  return bases.some((b) => candidates.some((c) => existsSync(join(b, c))));
}

describe("paths the READMEs name", () => {
  for (const doc of DOCS) {
    it(`${doc}: every repository path it names exists`, () => {
      const paths = namedPaths(readFileSync(join(ROOT, doc), "utf8"));
      expect(paths.length).toBeGreaterThan(0);
      expect(paths.filter((p) => !exists(doc, p))).toEqual([]);
    });
  }
});
