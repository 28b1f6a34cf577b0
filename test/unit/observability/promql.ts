import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const PROMTOOL = "/usr/bin/promtool";
export const promtoolInstalled = (): boolean => existsSync(PROMTOOL);

const ROOT = join(import.meta.dirname, "../../..");
export const ALERTS_YML = join(ROOT, "config/prometheus/alerts.yml");

/** The PromQL of one dashboard panel target, `$__rate_interval` as 1m. */
export function panelExpr(file: string, title: string, refId = "A"): string {
  const d = JSON.parse(readFileSync(join(ROOT, "config/grafana/dashboards", file), "utf8")) as {
    panels: { title: string; targets?: { refId: string; expr: string }[] }[];
  };
  const expr = d.panels.find((p) => p.title === title)?.targets?.find((t) => t.refId === refId)?.expr;
  if (expr === undefined) throw new Error(`${file}: no panel ${title} / ${refId}`);
  return expr.replaceAll("$__rate_interval", "1m");
}

/**
 * Runs one `promtool test rules` case: `series` (promtool input series notation, 15 s apart),
 * `ruleFiles` loaded, and `exprTests` as promql_expr_test entries. Returns promtool's status and output.
 */
export function promtoolCase(opts: {
  series: readonly { series: string; values: string }[];
  exprTests?: readonly {
    expr: string;
    evalTime: string;
    expSamples: readonly { labels?: string; value: number }[];
  }[];
  ruleFiles?: readonly string[];
}): { status: number | null; out: string } {
  const dir = mkdtempSync(join(tmpdir(), "mm-promql-"));
  try {
    const q = (s: string) => `'${s.replaceAll("'", "''")}'`;
    const lines = [
      `rule_files: [${(opts.ruleFiles ?? []).map((f) => JSON.stringify(f)).join(", ")}]`,
      "evaluation_interval: 15s",
      "tests:",
      "  - interval: 15s",
      "    input_series:",
      ...opts.series.flatMap((s) => [
        `      - series: ${q(s.series)}`,
        `        values: ${JSON.stringify(s.values)}`,
      ]),
      "    promql_expr_test:",
      ...(opts.exprTests ?? []).flatMap((t) => [
        `      - expr: ${q(t.expr)}`,
        `        eval_time: ${t.evalTime}`,
        t.expSamples.length === 0 ? "        exp_samples: []" : "        exp_samples:",
        ...t.expSamples.flatMap((s) => [
          `          - labels: ${q(s.labels ?? "{}")}`,
          `            value: ${s.value}`,
        ]),
      ]),
    ];
    const file = join(dir, "case.test.yml");
    writeFileSync(file, `${lines.join("\n")}\n`);
    const r = spawnSync(PROMTOOL, ["test", "rules", file], { encoding: "utf8" });
    return { status: r.status, out: `${r.stdout}${r.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
