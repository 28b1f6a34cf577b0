import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSettingsTable } from "../../../src/config/docs.js";
import { packageRoot } from "../../../src/config/paths.js";

/*
 * Guard: README's Configuration table is exactly what `mm config --docs` prints
 * (renderSettingsTable), so a setting, env var, default or doc changed in src/config/schema*.ts
 * cannot silently leave README behind. No test compared them before.
 */

function readmeSettingsTable(): string {
  const lines = readFileSync(join(packageRoot(), "README.md"), "utf8").split("\n");
  const start = lines.indexOf("| setting | env | default | doc |");
  expect(start, "README has the settings table").toBeGreaterThanOrEqual(0);
  const rows: string[] = [];
  for (let i = start; i < lines.length && (lines[i] as string).startsWith("|"); i++)
    rows.push(lines[i] as string);
  return rows.join("\n");
}

describe("README Configuration table", () => {
  it("is the table `mm config --docs` generates", () => {
    expect(readmeSettingsTable()).toBe(renderSettingsTable());
  });
});
