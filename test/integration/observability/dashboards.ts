import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export const DASHBOARD_DIR = join(import.meta.dirname, "../../../config/grafana/dashboards");
export const ALERT_RULES = join(import.meta.dirname, "../../../config/prometheus/alerts.yml");
/** promtool unit tests of the alert rules' timing (`promtool test rules`). */
export const ALERT_RULE_TESTS = join(import.meta.dirname, "../../../config/prometheus/alerts.test.yml");

/** One PromQL expression of a dashboard: a panel target or a template variable's query. */
export interface DashboardQuery {
  /** e.g. `mm-market.json / Spread / A` (a variable: `mm-market.json / $market`). */
  readonly id: string;
  /** As written in the dashboard (Grafana variables unexpanded). */
  readonly raw: string;
  /** Ready for Prometheus's API: variables expanded, label_values() turned into PromQL. */
  readonly expr: string;
}

interface Panel {
  title?: string;
  targets?: { refId?: string; expr?: string }[];
  panels?: Panel[];
}

/**
 * Grafana's variables as a Prometheus query sees them over a short test run: `$__rate_interval`
 * becomes 1m (≥ 4 scrapes at the test's 1 s interval, as Grafana guarantees), `$market` its All
 * value `.+`. Anything else starting with `$` is left, so an unknown variable fails to parse.
 */
export function expandVariables(expr: string): string {
  return expr
    .replaceAll("$__rate_interval", "1m")
    .replaceAll("$__interval", "1m")
    .replaceAll("$market", ".+");
}

/** Every PromQL expression of every dashboard under config/grafana/dashboards. */
export function dashboardQueries(): DashboardQuery[] {
  const out: DashboardQuery[] = [];
  for (const file of readdirSync(DASHBOARD_DIR)
    .filter((f) => f.endsWith(".json"))
    .sort()) {
    const d = JSON.parse(readFileSync(join(DASHBOARD_DIR, file), "utf8")) as {
      panels?: Panel[];
      templating?: { list?: { name: string; query?: string | { query?: string } }[] };
    };
    const walk = (panels: Panel[] | undefined) => {
      for (const p of panels ?? []) {
        for (const t of p.targets ?? []) {
          if (t.expr === undefined) continue;
          out.push({ id: `${file} / ${p.title} / ${t.refId}`, raw: t.expr, expr: expandVariables(t.expr) });
        }
        walk(p.panels);
      }
    };
    walk(d.panels);
    for (const v of d.templating?.list ?? []) {
      const q = typeof v.query === "string" ? v.query : v.query?.query;
      if (q === undefined) continue;
      out.push({ id: `${file} / $${v.name}`, raw: q, expr: labelValuesToPromQL(q) });
    }
  }
  return out;
}

/** `label_values(metric, label)` (Grafana's variable function) as the PromQL it stands for. */
function labelValuesToPromQL(q: string): string {
  const m = /^label_values\((.+),\s*([a-zA-Z_][a-zA-Z0-9_]*)\)$/.exec(q.trim());
  return m === null ? expandVariables(q) : `count by (${m[2]}) (${expandVariables(m[1] as string)})`;
}
