import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { importPolymarketPriceChanges } from "../../../../src/backtest/import/polymarket-price-changes.js";
import { packageRoot } from "../../../../src/config/paths.js";

/** The real Polymarket capture beside the repository (../shared/data), as the importer reads it. */
export const CAPTURE_CSV = join(
  packageRoot(),
  "../shared/data/polymarket-price-changes/price_change_messages_202501302221.csv",
);

/**
 * The capture imported once for a test file, in a private temp folder removed after it: call at the
 * file's top level; the returned function gives the recording's path inside tests.
 * @example const data = importedCapture("mm-backtest-pm-"); it("…", async () => runBacktest({ config, data: data() }));
 */
export function importedCapture(prefix: string): () => string {
  let dir: string | undefined;
  let data: string | undefined;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    data = join(dir, "pm.jsonl.gz");
    await importPolymarketPriceChanges({ input: CAPTURE_CSV, output: data });
  });
  afterAll(() => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    if (data === undefined) throw new Error("the capture is imported in beforeAll: read it inside a test");
    return data;
  };
}
