import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../../../src/config/paths.js";
import { MIGRATIONS } from "../../../src/journal/migrations.js";

/**
 * README's "Version N adds `table`" sentences name the migration that creates the table: an operator
 * checking a file's `PRAGMA user_version` must not believe it has a table it lacks (README once said
 * version 6 adds `settlements`, which is migration 7).
 */
describe("README schema version sentences", () => {
  it("name the migration that creates each table", () => {
    const readme = readFileSync(join(packageRoot(), "README.md"), "utf8").replace(/\s+/g, " ");
    const claims = [...readme.matchAll(/version (\d+) adds `(\w+)`/gi)].map((m) => ({
      version: Number(m[1]),
      table: m[2] as string,
    }));
    expect(claims.length).toBeGreaterThan(0);
    for (const c of claims) {
      const creating = MIGRATIONS.find((m) => new RegExp(`CREATE TABLE ${c.table}\\b`).test(m.sql));
      expect(creating?.version, `README: Version ${c.version} adds \`${c.table}\``).toBe(c.version);
    }
  });
});
