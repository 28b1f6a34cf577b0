import { describe, expect, it } from "vitest";
import { SWEEP_HELP, SWEEP_OPTIONS } from "../../../../src/cli/backtest-sweep.js";

// `mm backtest --help`'s sweep usage line left out --progress, though Options listed it.
describe("mm backtest --help for sweeps", () => {
  it("names every sweep flag in the usage line and under Options", () => {
    for (const flag of Object.keys(SWEEP_OPTIONS)) {
      expect(SWEEP_HELP.usage).toContain(`--${flag}`);
      expect(SWEEP_HELP.options.some((l) => l.includes(`--${flag} `))).toBe(true);
    }
  });
});
