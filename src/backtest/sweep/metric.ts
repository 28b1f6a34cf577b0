import type { Decimal } from "decimal.js";
import { Dec } from "../../core/decimal.js";
import { BacktestError } from "../errors.js";
import { type PathStep, parsePath, pathText, valueAt } from "./json-path.js";
import { pathProblem } from "./summary-shape.js";

/** Which summary a sweep produces: a replay's or a synthetic run's. */
export type SummaryKind = "replay" | "synthetic";

/** Ranking order: `desc` puts the largest value first. */
export type RankOrder = "asc" | "desc";

/** A ranking metric resolved for one kind of summary. */
export interface Metric {
  /** As asked (`pnl`, `drawdown.max`), without an `:asc`/`:desc` suffix. */
  readonly name: string;
  /** What is read, e.g. `pnl.total` or `mean of perPath[].maxDrawdown`. */
  readonly field: string;
  readonly order: RankOrder;
  /** The value in a summary; undefined when absent, null or not numeric. */
  read(summary: unknown): Decimal | undefined;
  /** A plain path into the summary (checked against the first result), or undefined for a named metric. */
  readonly path: readonly PathStep[] | undefined;
}

interface Named {
  readonly field: string;
  readonly order: RankOrder;
  readonly read: (summary: unknown) => Decimal | undefined;
}

const at = (field: string, order: RankOrder): Named => {
  const steps = parsePath(field) as PathStep[];
  return { field, order, read: (s) => numeric(valueAt(s, steps)) };
};

const perPathMean = (key: string, order: RankOrder): Named => ({
  field: `mean of perPath[].${key}`,
  order,
  read: (s) => {
    const rows = valueAt(s, ["perPath"]);
    if (!Array.isArray(rows) || rows.length === 0) return undefined;
    const xs = rows.map((r) => numeric(valueAt(r, [key])));
    if (xs.some((x) => x === undefined)) return undefined;
    return (xs as Decimal[]).reduce((a, x) => a.plus(x), new Dec(0)).div(xs.length);
  },
});

/** Named metrics per kind of summary; anything else is read as a path into the summary. */
export const NAMED_METRICS: Readonly<Record<SummaryKind, Readonly<Record<string, Named>>>> = {
  replay: {
    pnl: at("pnl.total", "desc"),
    realised: at("pnl.realised", "desc"),
    unrealised: at("pnl.unrealised", "desc"),
    sharpe: at("sharpe.annualised", "desc"),
    maxDrawdown: at("drawdown.max", "asc"),
    fills: at("fills.count", "desc"),
    makerVolume: at("fills.maker.volume", "desc"),
    takerVolume: at("fills.taker.volume", "desc"),
    fees: at("fees.value", "asc"),
    uptime: at("quoteUptime", "desc"),
  },
  synthetic: {
    pnl: at("pnl.mean", "desc"),
    pnlStd: at("pnl.std", "asc"),
    sharpe: {
      field: "pnl.mean / pnl.std",
      order: "desc",
      read: (s) => {
        const mean = numeric(valueAt(s, ["pnl", "mean"]));
        const std = numeric(valueAt(s, ["pnl", "std"]));
        return mean === undefined || std === undefined || std.isZero() ? undefined : mean.div(std);
      },
    },
    // Closest to flat first: a mean that ends short is no better than one that ends long.
    inventory: {
      field: "|finalInventory.mean|",
      order: "asc",
      read: (s) => numeric(valueAt(s, ["finalInventory", "mean"]))?.abs(),
    },
    inventoryStd: at("finalInventory.std", "asc"),
    fills: at("fills.mean", "desc"),
    maxDrawdown: perPathMean("maxDrawdown", "asc"),
    uptime: perPathMean("quoteUptime", "desc"),
  },
};

/** The metric ranked by when neither `--rank-by` nor the sweep file names one. */
export const DEFAULT_METRIC = "pnl";

/**
 * Resolves a ranking metric: a named one (`pnl`, `sharpe`, `maxDrawdown`, `fills`, … — see
 * NAMED_METRICS, each with its natural order) or a path into the summary (`markouts[0].perShare`,
 * ranked largest first), optionally suffixed `:asc` or `:desc`. Throws BacktestError
 * `rank_by_invalid` when it is neither, when it names a metric of the other kind of sweep, or a
 * path no summary of the kind has (pathProblem) — before any point runs, not after the first.
 * @example parseMetric("maxDrawdown", "replay").order // "asc"
 */
export function parseMetric(text: string, kind: SummaryKind): Metric {
  const m = /^(.*?)(?::(asc|desc))?$/.exec(text) as RegExpExecArray;
  const name = m[1] as string;
  const suffix = m[2] as RankOrder | undefined;
  const named = NAMED_METRICS[kind];
  if (Object.hasOwn(named, name)) {
    const n = named[name] as Named;
    return { name, field: n.field, order: suffix ?? n.order, read: n.read, path: undefined };
  }
  const other: SummaryKind = kind === "replay" ? "synthetic" : "replay";
  if (Object.hasOwn(NAMED_METRICS[other], name)) {
    throw new BacktestError(
      "rank_by_invalid",
      `rank-by ${JSON.stringify(text)}: ${name} is a ${other}-only metric (${other === "replay" ? "--config with --data" : "--scenario"}); a ${kind} sweep ranks by ${Object.keys(named).join(", ")} or a path into its summary`,
      { rankBy: text },
    );
  }
  const steps = parsePath(name);
  if (steps === undefined) {
    throw new BacktestError(
      "rank_by_invalid",
      `rank-by ${JSON.stringify(text)}: neither a metric (${Object.keys(named).join(", ")}) nor a path into the ${kind} summary such as "markouts[0].perShare"`,
      { rankBy: text },
    );
  }
  const problem = pathProblem(steps, kind);
  if (problem !== undefined) {
    throw new BacktestError(
      "rank_by_invalid",
      `rank-by ${JSON.stringify(text)}: neither a metric (${Object.keys(named).join(", ")}) nor a field of the ${kind} summary: ${problem}`,
      { rankBy: text },
    );
  }
  return {
    name,
    field: pathText(steps),
    order: suffix ?? "desc",
    read: (s) => numeric(valueAt(s, steps)),
    path: steps,
  };
}

/**
 * Checks a path metric against a summary: undefined when the field holds a number, else the
 * problem with the numeric fields the summary has (named metrics always fit their kind).
 */
export function metricProblem(metric: Metric, summary: unknown): string | undefined {
  if (metric.path === undefined) return undefined;
  const last = metric.path[metric.path.length - 1];
  const v = valueAt(summary, metric.path);
  if (!(typeof last === "string" && isId(last)) && (numeric(v) !== undefined || v === null)) {
    return undefined;
  }
  return `rank-by ${JSON.stringify(metric.name)}: not a numeric field of the summary; numeric fields: ${numericFields(summary).join(", ")}`;
}

/** Ids (tokenId, marketId, …) are decimal strings too, but no metric: they name what is measured. */
const isId = (key: string): boolean => key === "id" || key.endsWith("Id");

/**
 * The paths of numeric leaves of a summary (arrays shown through their first element), ids left out.
 * @example numericFields({ pnl: { total: "1.5" }, fills: { count: 2 } }) // ["pnl.total", "fills.count"]
 */
export function numericFields(summary: unknown): string[] {
  const out: string[] = [];
  const walk = (v: unknown, steps: PathStep[]) => {
    if (Array.isArray(v)) {
      if (v.length > 0) walk(v[0], [...steps, 0]);
    } else if (typeof v === "object" && v !== null) {
      for (const [k, x] of Object.entries(v)) if (!isId(k)) walk(x, [...steps, k]);
    } else if (steps.length > 0 && numeric(v) !== undefined) out.push(pathText(steps));
  };
  walk(summary, []);
  return out;
}

const DECIMAL = /^-?\d+(?:\.\d+)?$/;

/** A summary value as a Decimal: a finite number or a decimal string; anything else undefined. */
export function numeric(v: unknown): Decimal | undefined {
  if (typeof v === "number") return Number.isFinite(v) ? new Dec(String(v)) : undefined;
  if (typeof v === "string" && DECIMAL.test(v)) return new Dec(v);
  return undefined;
}
