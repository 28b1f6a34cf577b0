import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/config/load.js";
import { createMetrics } from "../../../src/observability/metrics.js";
import { ALERTS_YML, promtoolCase, promtoolInstalled } from "./promql.js";

// MmReconcileStale once fired when the last successful reconcile was more than 300 s old (for 2m),
// while reconcile.intervalMs is accepted up to 3 600 000 ms (1 h): with any valid period above
// ~420 s it fired on a perfectly healthy bot in every period ("The REST reconcile keeps failing",
// review 16). The bot now exports its period (mm_reconcile_interval_seconds) and the alert's
// threshold follows it: 2 × period + 60 s, never below the 300 s it always had.
const PERIOD_MS = 600_000;

const BOT = 'job="mm",instance="bot:9464"';

describe("mm_reconcile_interval_seconds", () => {
  it("exports the configured reconcile period in seconds", async () => {
    const registry = new Registry();
    createMetrics({ registry, defaultMetrics: false, reconcileIntervalMs: PERIOD_MS });
    const m = await registry.getSingleMetricAsString("mm_reconcile_interval_seconds");
    expect(m).toMatch(/^mm_reconcile_interval_seconds 600$/m);
  });
});

describe.runIf(promtoolInstalled())("MmReconcileStale and reconcile.intervalMs", () => {
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
        { series: `mm_reconcile_last_success_timestamp_seconds{${BOT}}`, values },
        { series: `mm_reconcile_interval_seconds{${BOT}}`, values: `600x${3 * perPeriod}` },
      ],
      exprTests: [
        { expr: 'ALERTS{alertname="MmReconcileStale"}', evalTime: "8m", expSamples: [] },
        { expr: 'ALERTS{alertname="MmReconcileStale"}', evalTime: "19m", expSamples: [] },
      ],
    });
    expect(r, r.out).toMatchObject({ status: 0 });
  });
});
