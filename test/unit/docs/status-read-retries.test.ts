import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../../../src/config/paths.js";

/**
 * README's retry policy: the market status reads of the open-market sweep and the closed-market
 * watch are made once, no retry. The sweep's confirm read (the record of a market the list says is
 * not OPEN, open-market-sweep.ts #confirm) keeps the client's 3 attempts on purpose; the paragraph
 * said "one, no retry" of every sweep read. The engine side is pinned in
 * test/unit/engine/status-reads-half-open.test.ts (the confirm read is made without `once`).
 */
const README = readFileSync(join(packageRoot(), "README.md"), "utf8");

/** The README's "Retry policy" paragraph, up to the next section. */
function retryPolicy(): string {
  const start = README.indexOf("Retry policy, as the spec advises");
  const end = README.indexOf("\n## ", start);
  if (start < 0 || end < 0) throw new Error("README: no retry policy paragraph");
  return README.slice(start, end).replace(/\s+/g, " ");
}

describe("README: the status reads' retries", () => {
  it("says the sweep's confirm read keeps the client's 3 attempts beside the one-read rule", () => {
    const p = retryPolicy();
    expect(p).toMatch(/closed-market watch: one, no retry/);
    expect(p).toMatch(/sweep's confirm read[^;)]*keeps the 3 attempts/);
  });
});
