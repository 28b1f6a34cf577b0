import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../../../src/config/paths.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { buildReport } from "../../../src/journal/report.js";
import { reportText } from "../../../src/journal/report-format.js";
import { twoRunJournal } from "../journal/report-support.js";

/*
 * README "`mm report`" shows what the report prints for the unit test's journal (two runs of one
 * wallet). Nothing compared the two before: a change of the report's tables (the total PnL line)
 * could leave README showing an older layout. The path in README's first line is a placeholder.
 */

const SHOWN_PATH = "/path/to/journal.sqlite";

/** README's example block: from `mm report: /path/…` to the end of its fence. */
function readmeExample(): string {
  const readme = readFileSync(join(packageRoot(), "README.md"), "utf8");
  const start = readme.indexOf(`\`\`\`text\nmm report: ${SHOWN_PATH}\n`);
  expect(start, "README's mm report example").toBeGreaterThanOrEqual(0);
  const body = readme.slice(start + "```text\n".length);
  return body.slice(0, body.indexOf("```"));
}

describe("README mm report example", () => {
  it("is what mm report prints for the unit test's journal", () => {
    const path = twoRunJournal();
    const db = openJournalDb(path, { mustExist: true });
    const report = buildReport(db);
    db.close();
    expect(readmeExample()).toBe(reportText(report, SHOWN_PATH));
  });
});
