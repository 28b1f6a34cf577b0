import { collectDefaultMetrics, type Registry } from "prom-client";

/**
 * prom-client defaults that break Prometheus naming: gauges ending in `_total` (promtool: "non-counter
 * metrics should not have _total suffix"). Their information is kept: the same counts by type are
 * `nodejs_active_handles`, `nodejs_active_requests` and `nodejs_active_resources` (sum them).
 */
const MISNAMED_DEFAULTS = [
  "nodejs_active_handles_total",
  "nodejs_active_requests_total",
  "nodejs_active_resources_total",
] as const;

/** The process_* and nodejs_* default metrics on `registry`, minus the misnamed ones. */
export function registerProcessMetrics(registry: Registry): void {
  collectDefaultMetrics({ register: registry });
  for (const name of MISNAMED_DEFAULTS) registry.removeSingleMetric(name);
}
