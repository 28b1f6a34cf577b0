import type { Decimal } from "decimal.js";
import { Dec } from "../../core/decimal.js";
import { BacktestError } from "../errors.js";
import { type PathStep, parsePath, pathText, valueAt } from "./json-path.js";
import { checkPath, type SummaryContext, type SummaryKind } from "./summary-shape.js";

export type { SummaryContext, SummaryKind } from "./summary-shape.js";

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
  /** A plain path into the summary (checked before any point runs), or undefined for a named metric. */
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
 * path that reaches no number of the kind's summaries (checkPath; with the sweep's `ctx`, the
 * strategy's parameters, the latencies and the queue model are its own) — before any point runs.
 * A count the summary leaves out while 0 (a reject code that never happened) reads as 0.
 * @example parseMetric("maxDrawdown", "replay").order // "asc"
 */
export function parseMetric(text: string, kind: SummaryKind, ctx?: SummaryContext): Metric {
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
  const check = checkPath(steps, kind, ctx);
  if ("problem" in check) {
    throw new BacktestError(
      "rank_by_invalid",
      `rank-by ${JSON.stringify(text)}: neither a metric (${Object.keys(named).join(", ")}) nor a number of the ${kind} summary: ${check.problem}`,
      { rankBy: text },
    );
  }
  // A count by code lists only the codes that happened: one absent is 0, not a missing figure.
  const absent = check.absentIsZero ? 0 : undefined;
  return {
    name,
    field: pathText(steps),
    order: suffix ?? "desc",
    read: (s) => numeric(valueAt(s, steps) ?? absent),
    path: steps,
  };
}

const DECIMAL = /^-?\d+(?:\.\d+)?$/;

/** A summary value as a Decimal: a finite number or a decimal string; anything else undefined. */
export function numeric(v: unknown): Decimal | undefined {
  if (typeof v === "number") return Number.isFinite(v) ? new Dec(String(v)) : undefined;
  if (typeof v === "string" && DECIMAL.test(v)) return new Dec(v);
  return undefined;
}
