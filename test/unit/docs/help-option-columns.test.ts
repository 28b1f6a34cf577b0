import { describe, expect, it } from "vitest";
import { COMMANDS } from "../../../src/cli/commands.js";

/*
 * Each `mm <command> --help` lists its options in two columns. The shared `--config FILE` line
 * (CONFIG_OPTION_HELP) is padded for a 22-character option column, and `mm record`'s column is 26:
 * its `--config` description started four characters left of every other (README walk, session 21).
 * Within one help text, every option whose name fits the usual column starts its description there.
 */

/** Each option line's name length and the column its description starts at. */
function optionLines(help: string): { name: number; column: number }[] {
  const lines = help.split("\n");
  const out: { name: number; column: number }[] = [];
  for (const line of lines.slice(lines.indexOf("Options:") + 1)) {
    const m = /^( {2}(?:-\w, | {4})--[\w-]+(?: [A-Z][A-Z|.]*)?)( +)\S/.exec(line);
    if (m !== null)
      out.push({ name: (m[1] as string).length, column: (m[1] as string).length + (m[2] as string).length });
  }
  return out;
}

/** The column most option lines use. */
function usualColumn(rows: readonly { column: number }[]): number {
  const counts = new Map<number, number>();
  for (const r of rows) counts.set(r.column, (counts.get(r.column) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
}

describe("mm <command> --help: option descriptions line up", () => {
  for (const command of COMMANDS) {
    it(`mm ${command.name} --help`, () => {
      const rows = optionLines(command.help);
      expect(rows.length).toBeGreaterThan(0);
      const column = usualColumn(rows);
      // A name as long as the column (backtest's --point-timeout S) ends where it ends.
      const off = rows.filter((r) => r.name < column && r.column !== column);
      expect(off, `column ${column}`).toEqual([]);
    });
  }
});
