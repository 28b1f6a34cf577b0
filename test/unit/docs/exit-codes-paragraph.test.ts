import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { backtestCommand } from "../../../src/cli/backtest.js";
import { importCommand } from "../../../src/cli/import.js";
import { reportCommand } from "../../../src/cli/report.js";
import { packageRoot } from "../../../src/config/paths.js";

/*
 * review17 Q3: README "Commands" summed exit code 2 up as "configuration or usage error", while
 * `mm import` and `mm backtest` also exit 2 on bad input data and `mm report` when there is no
 * journal (their --help texts say so). The summary must name those cases too.
 */

const README = readFileSync(join(packageRoot(), "README.md"), "utf8");

/** The paragraph after the Commands table that starts "Exit codes:". */
function exitCodesParagraph(): string {
  const start = README.indexOf("\nExit codes: `0` success");
  expect(start, "README Commands exit-code paragraph").toBeGreaterThan(0);
  return README.slice(start + 1, README.indexOf("\n\n", start + 1)).replace(/\s+/g, " ");
}

const CASES: readonly [cmd: string, help: string, helpSays: RegExp, readmeSays: RegExp][] = [
  ["import", importCommand.help, /2 on bad usage, bad input/, /`mm import`[^;]*bad input/],
  [
    "backtest",
    backtestCommand.help,
    /2 on bad usage, config, scenario, sweep file or data/,
    /`mm backtest`[^;]*data/,
  ],
  [
    "report",
    reportCommand.help,
    /2 bad usage or configuration, or no readable journal/,
    /`mm report`[^;]*journal/,
  ],
];

describe("README Commands: exit code 2 covers what each command's --help says (review17 Q3)", () => {
  for (const [cmd, help, helpSays, readmeSays] of CASES) {
    it(`mm ${cmd}`, () => {
      expect(help.replace(/\s+/g, " ")).toMatch(helpSays);
      expect(exitCodesParagraph()).toMatch(readmeSays);
    });
  }
});
