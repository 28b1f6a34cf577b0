import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../../../src/config/paths.js";

/*
 * README "Assumptions": "Each lives in one place in the code, named here, so that a different real
 * answer is one small change." For each row below, the text that implements the assumption (a token
 * the implementation cannot do without) must be in one of the files the row's "where" cell names.
 *
 * A review found these rows naming a file that did not hold the rule (now corrected):
 * - lifecycle events → src/app/feeds.ts only calls lifecycleStatus(); the mapping is in
 *   src/gateway/lifecycle-status.ts.
 * - /health, /ready → src/exchange/assumptions.ts never mentions them; src/exchange/platform.ts does
 *   (`#probe("/ready", [503])`).
 * - crossed books → src/book/order-book.ts only declares isCrossed(); `bid >= ask` is in
 *   src/book/levels-book.ts.
 * - ambiguous placements → src/execution/reconcile-open-orders.ts only lists them as `unresolved`;
 *   the 30 s rule (`never_placed`, graceMs 30 000) is in src/execution/reconcile-ghosts.ts.
 * - journal account → src/app/journal.ts receives `account` as given; it is built from
 *   config.exchange.baseUrl + maker in src/app/daemon.ts:102.
 * The last rows are controls that pass.
 */

const ROOT = packageRoot();
const README = readFileSync(join(ROOT, "README.md"), "utf8");

/** The backticked paths of the "where" cell of the Assumptions row whose topic is `topic`. */
function whereOf(topic: string): string[] {
  const row = README.split("\n").find((l) => l.startsWith(`| ${topic} |`));
  expect(row, `README Assumptions row "${topic}"`).toBeDefined();
  const cells = (row as string).split(" | ");
  const where = cells[cells.length - 1] as string;
  return [...where.matchAll(/`(src\/[^`]+)`/g)].map((m) => m[1] as string);
}

function holds(paths: readonly string[], token: string): boolean {
  return paths.some((p) => {
    const file = join(ROOT, p);
    return existsSync(file) && !p.endsWith("/") && readFileSync(file, "utf8").includes(token);
  });
}

const ROWS: readonly [topic: string, token: string][] = [
  ["lifecycle events", "market_unpaused"],
  ["/health, /ready", "/ready"],
  ["crossed books", "bid >= ask"],
  ["ambiguous placements", "never_placed"],
  ["journal account", "exchange.baseUrl"],
  ["one bot per wallet", "orphans.push"],
  ["key refused in a placement's answer", "KEY_REFUSED_CODES"],
  ["SELL proceeds", "mulWeiFloor"],
  ["place body `outcome`", "outcomeLabels"],
  ["fee changed while running", "BAD_SIGNATURE"],
  // controls
  ["heartbeat", "pingIntervalMs"],
  ["market list", "LIST_LIMIT = 500"],
  ["paging of open orders and positions", "MAX_LIST_PAGES = 100"],
];

describe("README Assumptions: the 'where' column names the file holding the rule", () => {
  for (const [topic, token] of ROWS) {
    it(`${topic}: ${token}`, () => {
      const paths = whereOf(topic);
      expect(paths.length, "the row names a file").toBeGreaterThan(0);
      expect(holds(paths, token), `${paths.join(", ")} should contain ${JSON.stringify(token)}`).toBe(true);
    });
  }
});
