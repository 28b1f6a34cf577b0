import { parseStrategyConfig } from "../../../strategies/registry.js";
import { MmError } from "../../core/errors.js";
import { BacktestError } from "../errors.js";
import { PathProblem, type PathStep, parsePath, pathText, withValueAt } from "./json-path.js";

/** Most grid points one sweep may hold (a typo like a 1,000-value axis should not run for days). */
export const MAX_POINTS = 10_000;

/** One axis of the grid: a strategy parameter (path inside `strategy.params`) and its values. */
export interface GridAxis {
  readonly key: string;
  readonly steps: readonly PathStep[];
  readonly values: readonly unknown[];
}

/** A validated sweep file. */
export interface SweepSpec {
  readonly description: string | undefined;
  /** The strategy the grid is meant for (checked against the config's), if the file names one. */
  readonly strategy: string | undefined;
  readonly axes: readonly GridAxis[];
  /** The ranking metric, unless `--rank-by` overrides it. */
  readonly rankBy: string | undefined;
}

/** One combination of axis values; `point` numbers the grid from 1 in expansion order. */
export interface GridPoint {
  readonly point: number;
  /** Axis key → value, in axis order. */
  readonly params: Readonly<Record<string, unknown>>;
}

const KEYS = ["description", "strategy", "grid", "rankBy"];

/** A sweep file read without throwing: the spec as far as it is usable, and every problem found. */
export interface SweepRead {
  /** Axes that are not paths or hold no array of values, or set a parameter an earlier axis sets, are left out. */
  readonly spec: SweepSpec;
  readonly issues: readonly string[];
}

/**
 * Validates a sweep file (JSON, see docs): `{ "strategy"?: name, "grid": { key: [values…] },
 * "rankBy"?: metric, "description"?: text }`. Throws BacktestError `sweep_invalid` naming every
 * bad field (`grid.gamma: …`).
 * @example parseSweepFile({ grid: { gamma: [0.05, 0.1], k: [1.5, 3] } }).axes.length // 2
 */
export function parseSweepFile(raw: unknown): SweepSpec {
  const { spec, issues } = readSweepFile(raw);
  if (issues.length > 0) throw invalid(issues);
  return spec;
}

/**
 * parseSweepFile without the throw: the file's own problems are listed, so that sweepStrategies can
 * name them together with the values the strategy refuses (every problem at once).
 * @example readSweepFile({ grid: { gamma: [2, 2] } }).issues // ["grid.gamma[1]: repeats grid.gamma[0] (2)"]
 */
export function readSweepFile(raw: unknown): SweepRead {
  const issues: string[] = [];
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    const spec = { description: undefined, strategy: undefined, rankBy: undefined, axes: [] };
    return { spec, issues: ["(root): must be a JSON object"] };
  }
  const o = raw as Record<string, unknown>;
  for (const k of Object.keys(o)) if (!KEYS.includes(k)) issues.push(`${k}: unknown setting`);
  const text = (key: string): string | undefined => {
    const v = o[key];
    if (v === undefined) return undefined;
    if (typeof v === "string" && v !== "") return v;
    issues.push(`${key}: must be a non-empty string`);
    return undefined;
  };
  const spec: SweepSpec = {
    description: text("description"),
    strategy: text("strategy"),
    rankBy: text("rankBy"),
    axes: readAxes(o.grid, issues),
  };
  // As written, not as kept: an axis left out for another problem (an overlap, a key that is no
  // path) still counts, or its size problem would only surface once that one is fixed.
  const n = writtenSize(o.grid);
  if (n > MAX_POINTS) issues.push(`grid: ${n} points, more than the ${MAX_POINTS} a sweep may run`);
  return { spec, issues };
}

/**
 * The whole check of a sweep file against the config's strategy entry: every point and its
 * strategy entry (pointStrategies), or one BacktestError `sweep_invalid` naming every problem
 * found — the file's own (readSweepFile), a strategy that is not the config's, each value and
 * point the strategy refuses. Points are checked unless the strategy differs or the grid is over
 * MAX_POINTS. `rankProblem`, when given, names what is wrong with the file's `rankBy` for the
 * points' strategy entries (none when they were not checked): asked only when the file has other
 * problems, so a bad `rankBy` is named with them, not after they are fixed (alone, the caller's own
 * check reports it).
 * @example const { points, strategies } = sweepStrategies(readSweepFile(raw), config.strategyRaw);
 */
export function sweepStrategies(
  read: SweepRead,
  baseStrategy: unknown,
  rankProblem?: (strategies: readonly unknown[]) => string | undefined,
): { points: GridPoint[]; strategies: unknown[] } {
  const { spec } = read;
  const issues = [...read.issues];
  const fail = (strategies: readonly unknown[]): BacktestError => {
    const rank = rankProblem?.(strategies);
    return invalid(rank === undefined ? issues : [...issues, rank]);
  };
  const name = ((baseStrategy ?? {}) as { name?: unknown }).name;
  const mismatch = spec.strategy !== undefined && name !== spec.strategy;
  if (mismatch) issues.push(strategyMismatch(spec.strategy, name));
  // No points worth checking: each of these cases has put its problem in `issues`.
  if (mismatch || spec.axes.length === 0 || gridSize(spec.axes) > MAX_POINTS) throw fail([]);
  const points = expandGrid(spec.axes);
  const checked = checkPoints(spec, baseStrategy, points);
  issues.push(...checked.issues);
  if (issues.length > 0) throw fail(checked.strategies);
  return { points, strategies: checked.strategies };
}

function readAxes(grid: unknown, issues: string[]): GridAxis[] {
  if (grid === undefined) {
    issues.push("grid: is required");
    return [];
  }
  if (typeof grid !== "object" || grid === null || Array.isArray(grid) || Object.keys(grid).length === 0) {
    issues.push("grid: must be a non-empty object of parameter → array of values");
    return [];
  }
  const axes: GridAxis[] = [];
  for (const [key, values] of Object.entries(grid)) {
    const steps = parsePath(key);
    if (steps === undefined) {
      issues.push(`grid.${key}: not a parameter path (e.g. "gamma" or "bands[0].margin")`);
      continue;
    }
    if (!Array.isArray(values) || values.length === 0) {
      issues.push(`grid.${key}: must be a non-empty array of values`);
      continue;
    }
    const seen = new Map<string, number>();
    values.forEach((v, i) => {
      const j = JSON.stringify(v);
      const first = seen.get(j);
      if (first !== undefined) issues.push(`grid.${key}[${i}]: repeats grid.${key}[${first}] (${j})`);
      else seen.set(j, i);
    });
    // Compared as parsed paths: "bands[00].size" is "bands[0].size" spelled differently.
    const clash = axes.find((a) => overlaps(pathText(a.steps), pathText(steps)));
    if (clash !== undefined) {
      // Left out of the points checked: its values would land on the other axis's, blamed twice.
      issues.push(`grid.${key}: overlaps grid.${clash.key}`);
      continue;
    }
    axes.push({ key, steps, values });
  }
  return axes;
}

// The grid's size as the file writes it: every key holding a non-empty array, kept as an axis or not.
function writtenSize(grid: unknown): number {
  if (typeof grid !== "object" || grid === null || Array.isArray(grid)) return 0;
  let n = 1;
  for (const values of Object.values(grid))
    if (Array.isArray(values) && values.length > 0) n *= values.length;
  return n;
}

// "bands" and "bands[0].margin" would set the same parameter twice.
function overlaps(a: string, b: string): boolean {
  const prefix = (x: string, y: string) => y === x || y.startsWith(`${x}.`) || y.startsWith(`${x}[`);
  return prefix(a, b) || prefix(b, a);
}

/** Number of points of the grid (product of the axes' lengths). */
export function gridSize(axes: readonly GridAxis[]): number {
  return axes.reduce((n, a) => n * a.values.length, 1);
}

/**
 * The cartesian product of the axes, the last axis varying fastest (nested loops in file order).
 * @example expandGrid(parseSweepFile({ grid: { a: [1, 2], b: ["x", "y"] } }).axes).map((p) => p.params)
 * // [{a:1,b:"x"}, {a:1,b:"y"}, {a:2,b:"x"}, {a:2,b:"y"}]
 */
export function expandGrid(axes: readonly GridAxis[]): GridPoint[] {
  const total = gridSize(axes);
  const out: GridPoint[] = [];
  for (let n = 0; n < total; n++) {
    const params: Record<string, unknown> = {};
    let rest = n;
    for (let i = axes.length - 1; i >= 0; i--) {
      const a = axes[i] as GridAxis;
      params[a.key] = a.values[rest % a.values.length];
      rest = Math.floor(rest / a.values.length);
    }
    // Re-insert in axis order (the loop above filled them last-first).
    const ordered: Record<string, unknown> = {};
    for (const a of axes) ordered[a.key] = params[a.key];
    out.push({ point: n + 1, params: ordered });
  }
  return out;
}

/**
 * Each point's strategy entry: the config's `{ name, params }` with the point's values set, checked
 * by the strategy's own validator before any backtest starts. Throws BacktestError `sweep_invalid`
 * naming the grid value at fault (`grid.gamma = "0.05": must be a JSON number: 0.05, not "0.05"`), or the point
 * when a combination is refused (e.g. glft's maxInventory below 1).
 */
export function pointStrategies(
  spec: SweepSpec,
  baseStrategy: unknown,
  points: readonly GridPoint[],
): unknown[] {
  const base = (baseStrategy ?? {}) as { name?: unknown };
  if (spec.strategy !== undefined && base.name !== spec.strategy) {
    throw invalid([strategyMismatch(spec.strategy, base.name)]);
  }
  const { issues, strategies } = checkPoints(spec, baseStrategy, points);
  if (issues.length > 0) throw invalid(issues);
  return strategies;
}

function strategyMismatch(wanted: string, got: unknown): string {
  return `strategy: the sweep is for ${JSON.stringify(wanted)} but the config's strategy is ${JSON.stringify(got)}`;
}

// Every point's entry through the strategy's validator, each problem named once.
function checkPoints(
  spec: SweepSpec,
  baseStrategy: unknown,
  points: readonly GridPoint[],
): { issues: string[]; strategies: unknown[] } {
  const base = (baseStrategy ?? {}) as { name?: unknown; params?: unknown };
  const issues = new Set<string>();
  const out: unknown[] = [];
  for (const p of points) {
    let params: unknown = base.params ?? {};
    for (const a of spec.axes) {
      const next = withValueAt(params, a.steps, p.params[a.key], "strategy.params");
      if (next instanceof PathProblem) issues.add(`grid.${a.key}: the config's ${next.message}`);
      else params = next;
    }
    // The config's own key order: the point's summary repeats this entry, byte for byte as
    // `mm backtest` would with the value written into the config.
    const entry = { ...base, params };
    out.push(entry);
    try {
      parseStrategyConfig(entry);
    } catch (err) {
      const list =
        err instanceof MmError
          ? (err.details.issues as { field: string; message: string }[] | undefined)
          : undefined;
      if (list === undefined || list.length === 0) throw err;
      for (const i of list) issues.add(blame(spec.axes, p, i.field, i.message));
    }
  }
  return { issues: [...issues], strategies: out };
}

// A problem with `params.gamma` is the grid value's; others belong to the point as a whole.
function blame(axes: readonly GridAxis[], p: GridPoint, field: string, message: string): string {
  const axis = axes.find((a) => {
    const f = `params.${a.key}`;
    return field === f || field.startsWith(`${f}.`) || field.startsWith(`${f}[`);
  });
  if (axis !== undefined) {
    const at = field === `params.${axis.key}` ? "" : ` (${field})`;
    return `grid.${axis.key} = ${JSON.stringify(p.params[axis.key])}${at}: ${message}`;
  }
  return `grid point ${p.point} ${paramsText(p.params)}: strategy.${field}: ${message}`;
}

/** A point's values on one line: `gamma=0.1 k=3`. */
export function paramsText(params: Readonly<Record<string, unknown>>): string {
  return Object.entries(params)
    .map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`)
    .join(" ");
}

const SHOWN = 20;

function invalid(list: readonly string[]): BacktestError {
  const shown = list.length > SHOWN ? [...list.slice(0, SHOWN), `… ${list.length - SHOWN} more`] : list;
  return new BacktestError("sweep_invalid", `sweep file is invalid:\n  ${shown.join("\n  ")}`, {
    issues: [...list],
  });
}
