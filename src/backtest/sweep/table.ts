import type { Decimal } from "decimal.js";
import { Dec } from "../../core/decimal.js";
import { paramsText } from "./grid.js";
import { type Metric, NAMED_METRICS, type SummaryKind } from "./metric.js";
import type { PointOutcome, RankedPoint } from "./rank.js";

/** The figures shown next to the parameters, per kind of summary (named metrics). */
export const KEY_METRICS: Readonly<Record<SummaryKind, readonly string[]>> = {
  replay: ["pnl", "fills", "maxDrawdown", "sharpe", "uptime", "fees"],
  synthetic: ["pnl", "pnlStd", "sharpe", "inventory", "inventoryStd", "fills", "maxDrawdown"],
};

/** What renderTable lays out. */
export interface TableInput {
  readonly kind: SummaryKind;
  readonly keys: readonly string[];
  readonly metric: Metric;
  readonly ranked: readonly RankedPoint[];
  readonly outcomes: readonly PointOutcome[];
}

/**
 * The ranked result table as text: a heading line, one row per successful point (rank, grid
 * point, each parameter, the ranking metric, then the key metrics; figures to 6 decimals, `-` when
 * absent), then the failed points with their parameters and error. Pure: the same input gives the
 * same text.
 */
export function renderTable(t: TableInput): string {
  const failed = t.outcomes.filter((o) => o.status === "failed");
  const named = NAMED_METRICS[t.kind];
  const others = KEY_METRICS[t.kind].filter((n) => n !== t.metric.name);
  const header = ["rank", "point", ...t.keys, t.metric.name, ...others];
  const right = header.map((_, i) => i < 2 || i >= 2 + t.keys.length);
  const rows = t.ranked.map((r) => [
    String(r.rank),
    String(r.point),
    ...t.keys.map((k) => cell(r.params[k])),
    figure(r.value),
    ...others.map((n) => figure(named[n]?.read(r.summary))),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (right[i] === true ? c.padStart(widths[i] as number) : c.padEnd(widths[i] as number)))
      .join("  ")
      .trimEnd();
  const order = t.metric.order === "desc" ? "largest first" : "smallest first";
  const total = t.outcomes.length;
  const out = [
    `ranked by ${t.metric.name} (${t.metric.field}, ${order}): ${total} point${total === 1 ? "" : "s"}, ${failed.length} failed`,
    line(header),
    ...rows.map(line),
  ];
  if (failed.length > 0) {
    out.push("failed:");
    for (const f of failed) {
      out.push(`  point ${f.point} ${paramsText(f.params)}: ${f.error.code}: ${oneLine(f.error.message)}`);
    }
  }
  return `${out.join("\n")}\n`;
}

/** A figure for display: at most 6 decimals (half-even), `-` when absent. */
export function figure(v: Decimal | undefined): string {
  return v === undefined ? "-" : v.toDecimalPlaces(6, Dec.ROUND_HALF_EVEN).toFixed();
}

function cell(v: unknown): string {
  return typeof v === "string" ? v : JSON.stringify(v);
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, "; ");
}
