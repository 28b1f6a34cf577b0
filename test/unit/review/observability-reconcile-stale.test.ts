import { describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/config/load.js";
import { ALERTS_YML, promtoolCase, promtoolInstalled } from "../observability/promql.js";

// Review 16 (observability): MmReconcileStale fires when the last successful reconcile is more than
// 300 s old (for 2m), but reconcile.intervalMs is accepted up to 3 600 000 ms (1 h). With any valid
// period above ~420 s the alert fires on a perfectly healthy bot in every period ("The REST reconcile
// keeps failing"), though no reconcile failed. The threshold must follow the configured period (export
// it, e.g. mm_reconcile_interval_seconds, and compare against a multiple of it), or the setting's
// bounds must stay below what the alert tolerates.
const PERIOD_MS = 600_000;

describe.runIf(promtoolInstalled())(
  "review16 observability: MmReconcileStale and reconcile.intervalMs",
  () => {
    it("a 10-minute reconcile period is a valid setting", () => {
      const c = loadConfig({
        files: [],
        env: { MM_RECONCILE_INTERVAL_MS: String(PERIOD_MS) },
        cwd: process.cwd(),
      });
      expect(c.reconcile.intervalMs).toBe(PERIOD_MS);
    });

    it("does not fire on a bot whose every reconcile succeeds on that period", () => {
      // Successful reconciles at 0 s, 600 s, 1200 s (promtool's clock starts at 0; 15 s scrapes).
      const perPeriod = PERIOD_MS / 15_000;
      const values = [0, 600, 1200].map((t) => `${t}x${perPeriod - 1}`).join(" ");
      const r = promtoolCase({
        ruleFiles: [ALERTS_YML],
        series: [
          { series: 'mm_reconcile_last_success_timestamp_seconds{job="mm",instance="bot:9464"}', values },
        ],
        exprTests: [
          { expr: 'ALERTS{alertname="MmReconcileStale"}', evalTime: "8m", expSamples: [] },
          { expr: 'ALERTS{alertname="MmReconcileStale"}', evalTime: "19m", expSamples: [] },
        ],
      });
      expect(r, r.out).toMatchObject({ status: 0 });
    });
  },
);
