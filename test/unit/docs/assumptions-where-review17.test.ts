import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../../../src/config/paths.js";

/*
 * review17 (docs). README "Assumptions": "Each lives in one place in the code, named here, so that a
 * different real answer is one small change." test/unit/docs/assumptions-where.test.ts pins some rows;
 * these are rows it does not cover whose "where" cell names files that do not hold the rule:
 *
 * - "recorded trade prints": the 5 ms pairing rule (`PRINT_PAIRING_MS`, named in the row itself) is
 *   `export const PRINT_PAIRING_MS = 5` in src/backtest/replay/queue-model.ts (and applied there,
 *   `at - decreasedAt <= PRINT_PAIRING_MS`); the row names only src/backtest/replay/crowd-mirror.ts.
 * - "market list": "a market listed without conditionId or yesTokenId is not deployed …, one without
 *   noTokenId is not binary" is decided in src/engine/markets.ts (`m.yesTokenId !== null &&
 *   m.noTokenId !== null`, `why: … "not_deployed" : "not_binary"`); the row names only
 *   src/app/markets.ts, which imports tokenMarkets/unquotableNamed from there.
 * - "optional event fields": the row points at `FieldReader.lenient` beside
 *   src/gateway/schema/user-events.ts; `lenient<T>(…)` is defined in src/gateway/schema/fields.ts,
 *   which the row does not name.
 */

const ROOT = packageRoot();
const README = readFileSync(join(ROOT, "README.md"), "utf8");

function row(topic: string): string {
  const r = README.split("\n").find((l) => l.startsWith(`| ${topic} |`));
  expect(r, `README Assumptions row "${topic}"`).toBeDefined();
  return r as string;
}

function whereOf(topic: string): string[] {
  const cells = row(topic).split(" | ");
  const where = cells[cells.length - 1] as string;
  return [...where.matchAll(/`(src\/[^`]+)`/g)].map((m) => m[1] as string);
}

function read(p: string): string {
  const file = join(ROOT, p);
  if (!existsSync(file) || !statSync(file).isFile()) return "";
  return readFileSync(file, "utf8");
}

const RULES: readonly [topic: string, token: string][] = [
  ["recorded trade prints", "PRINT_PAIRING_MS = 5"],
  ["market list", "noTokenId !== null"],
  ["optional event fields", "lenient<T>("],
];

describe("README Assumptions: the 'where' cell names the file holding the rule (review17)", () => {
  for (const [topic, token] of RULES) {
    it(`${topic}: ${token}`, () => {
      const paths = whereOf(topic);
      expect(paths.length).toBeGreaterThan(0);
      const holder = paths.find((p) => read(p).includes(token));
      expect(holder, `${paths.join(", ")} should contain ${JSON.stringify(token)}`).toBeDefined();
    });
  }

  it("every `path` (`symbol`) pair of the Assumptions table: the symbol is in that file", () => {
    const lines = README.split("\n");
    const start = lines.indexOf("## Assumptions");
    const end = lines.indexOf("## Development");
    const wrong: string[] = [];
    for (const l of lines.slice(start, end)) {
      if (!l.startsWith("| ") || l.startsWith("| topic")) continue;
      const cells = l.split(" | ");
      const where = cells[cells.length - 1] as string;
      for (const m of where.matchAll(/`(src\/[^`]+)` \(`([^`]+)`/g)) {
        const [, path, sym] = m as unknown as [string, string, string];
        const name = sym.includes(".") ? (sym.split(".").pop() as string) : sym;
        const text = read(path);
        // `FieldReader.lenient` must be defined there, not only called (`r.lenient(`).
        const ok = sym.includes(".")
          ? new RegExp(`^\\s*${name}\\s*[<(]`, "m").test(text)
          : text.includes(name);
        if (!ok) wrong.push(`${cells[0]?.slice(2)}: ${path} (${sym})`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
