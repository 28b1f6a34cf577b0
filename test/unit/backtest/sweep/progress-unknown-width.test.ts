import { afterEach, describe, expect, it } from "vitest";
import type { ProgressState } from "../../../../src/backtest/sweep/progress.js";
import { ProgressReporter } from "../../../../src/backtest/sweep/progress-reporter.js";

/*
 * A terminal whose size is unknown reports 0 columns (Node's tty.WriteStream.columns on a pty
 * never sized: `script`, `docker exec -t`, some CI runners). The bar was cut to columns − 1 = no
 * character at all, so `--progress auto` on such a terminal showed nothing for the whole sweep.
 */

const state: ProgressState = {
  total: 8,
  done: 3,
  failed: 0,
  events: 300_000,
  eventsTotal: 800_000,
  elapsedMs: 6_000,
};

describe("ProgressReporter on a terminal of unknown width", () => {
  let reporter: ProgressReporter | undefined;
  afterEach(() => reporter?.stop());

  for (const cols of [0, Number.NaN]) {
    it(`draws the bar at the default width of 80 when the terminal reports ${cols} columns`, () => {
      const out: string[] = [];
      reporter = new ProgressReporter(
        "bar",
        { write: (t) => void out.push(t), columns: () => cols },
        () => 0,
      );
      reporter.pointDone(state);
      reporter.stop();
      const bar = out[0] ?? "";
      expect(bar.startsWith("\r") && bar.endsWith("\x1b[K")).toBe(true);
      expect(bar.slice(1, -3)).toMatch(/^sweep \[#+-+\] 3\/8 points · 50k events\/s · ETA 0:10$/);
      expect(bar.length - "\r\x1b[K".length).toBeLessThanOrEqual(79);
      expect(out.at(-1)).toBe("\r\x1b[K");
    });
  }
});
