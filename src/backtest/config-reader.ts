import { toWei } from "../core/wei.js";
import { BacktestError, type Issues } from "./errors.js";
import { type PathStep, parsePath, valueAt } from "./sweep/json-path.js";

const DECIMAL = /^\d+(?:\.\d{1,6})?$/;

/** A JSON object as read from a config file. */
export type Json = Record<string, unknown>;

/** Bounds of a number setting (inclusive min/max; `int` requires an integer). */
export interface NumRule {
  readonly min?: number;
  readonly max?: number;
  readonly gt?: number;
  readonly int?: boolean;
}

/**
 * Reads a JSON settings tree into typed values, collecting every problem as `path.field: problem`
 * in `issues` (defaults stand in for bad values so reading goes on). Amounts are decimal strings
 * with at most 6 decimals, returned as micro-units.
 */
export class ConfigReader {
  readonly issues: Issues;

  constructor(issues: Issues) {
    this.issues = issues;
  }

  /** A section: an object (or absent → {}); keys outside `allowed` are reported. */
  section(value: unknown, path: string, allowed: readonly string[]): Json {
    if (value === undefined) return {};
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      this.issues.add(path, "must be an object");
      return {};
    }
    for (const key of Object.keys(value)) {
      if (!allowed.includes(key)) this.issues.add(join(path, key), "unknown setting");
    }
    return value as Json;
  }

  /** A number within `rule`, or `def` when absent. */
  num(o: Json, path: string, key: string, def: number, rule: NumRule = {}): number {
    const v = o[key];
    if (v === undefined) return def;
    const bad = (why: string): number => {
      this.issues.add(join(path, key), why);
      return def;
    };
    if (typeof v !== "number" || !Number.isFinite(v)) return bad("must be a finite number");
    if (rule.int === true && !Number.isSafeInteger(v)) return bad("must be an integer");
    if (rule.min !== undefined && v < rule.min) return bad(`must be >= ${rule.min}`);
    if (rule.max !== undefined && v > rule.max) return bad(`must be <= ${rule.max}`);
    if (rule.gt !== undefined && !(v > rule.gt)) return bad(`must be > ${rule.gt}`);
    return v;
  }

  /** A decimal string (≤ 6 decimals) as micro-units; `positive` refuses 0. */
  micro(o: Json, path: string, key: string, def: string, opts: { positive?: boolean } = {}): bigint {
    const v = o[key] ?? def;
    if (typeof v !== "string" || !DECIMAL.test(v)) {
      this.issues.add(join(path, key), 'must be a decimal string with at most 6 decimals, e.g. "0.01"');
      return toWei(def);
    }
    const micro = toWei(v);
    if (opts.positive === true && micro <= 0n) {
      this.issues.add(join(path, key), "must be above 0");
      return toWei(def);
    }
    return micro;
  }

  /** One of `choices`, or `def` when absent. */
  oneOf<T extends string>(o: Json, path: string, key: string, choices: readonly T[], def: T): T {
    const v = o[key];
    if (v === undefined) return def;
    if (typeof v === "string" && (choices as readonly string[]).includes(v)) return v as T;
    this.issues.add(join(path, key), `must be one of ${choices.map((c) => JSON.stringify(c)).join(", ")}`);
    return def;
  }

  /** A boolean, or `def` when absent. */
  bool(o: Json, path: string, key: string, def: boolean): boolean {
    const v = o[key];
    if (v === undefined) return def;
    if (typeof v === "boolean") return v;
    this.issues.add(join(path, key), "must be true or false");
    return def;
  }
}

/** `a.b` (or `b` at the root). */
export function join(path: string, key: string): string {
  return path === "" ? key : `${path}.${key}`;
}

/**
 * Layers config files: later files win; objects merge key by key, arrays, the `strategy` entry
 * and model objects (an object with a `type`, e.g. a latency distribution or the queue model) are
 * replaced whole (merging two strategies' parameters, or two distributions, would make a third
 * nobody wrote).
 * @example layerConfigs([{ latency: { feedMs: 5 } }, { latency: { entryMs: 20 } }]) // both latencies
 */
export function layerConfigs(layers: readonly unknown[]): unknown {
  let out: unknown;
  for (const layer of layers) out = mergeInto(out, layer, "");
  return out;
}

function mergeInto(base: unknown, over: unknown, key: string): unknown {
  if (key === "strategy" || !isPlain(base) || !isPlain(over) || "type" in over || "type" in base)
    return over === undefined ? base : over;
  const out: Json = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = mergeInto(out[k], v, k);
  return out;
}

function isPlain(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * Runs `parse` on layered config files and, when it refuses them (`backtest_config_invalid`,
 * `scenario_invalid`), names after each `field: problem` the file the field came from (see
 * layerFileOf). With several `--config` files, "unknown setting" alone left the reader to search
 * each. A problem with no field in the layered result nor any part of it (one missing at the top,
 * a rule across fields) is left as it was; so is every problem of a single file.
 * @example withLayerFiles(["base.json", "over.json"], layers, () => parseReplayConfig(layers))
 */
export function withLayerFiles<T>(files: readonly string[], layers: readonly unknown[], parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    const issues = err instanceof BacktestError ? err.details.issues : undefined;
    if (files.length < 2 || !Array.isArray(issues) || !issues.every((x) => typeof x === "string")) throw err;
    const merged = layerConfigs(layers);
    const named = issues.map((issue: string) => {
      const steps = parsePath(issue.slice(0, Math.max(issue.indexOf(": "), 0)));
      const i = steps === undefined ? -1 : layerFileOf(layers, merged, steps);
      return i < 0 ? issue : `${issue} (in ${files[i]})`;
    });
    const head = (err as BacktestError).message.split("\n")[0] as string;
    throw new BacktestError((err as BacktestError).code, [head, ...named].join("\n  "), {
      ...(err as BacktestError).details,
      issues: named,
    });
  }
}

/**
 * The index of the layer to blame for the field at `steps`, or -1. A field the layered result
 * (`merged`) holds came from the last layer holding it. A field it lacks may still be in an
 * earlier layer, whose part a later one replaced whole (`strategy`, an array, a model with a
 * `type`) without it: that earlier file is fine, the replacement is not, so the blame goes to the
 * last layer holding the field's nearest ancestor the result does hold (the replacement or a part
 * of it); none when not even the top key is there.
 */
function layerFileOf(layers: readonly unknown[], merged: unknown, steps: readonly PathStep[]): number {
  for (let n = steps.length; n > 0; n--) {
    const prefix = steps.slice(0, n);
    if (valueAt(merged, prefix) !== undefined)
      return layers.findLastIndex((l) => valueAt(l, prefix) !== undefined);
  }
  return -1;
}
