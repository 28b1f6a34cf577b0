import { Dec } from "../src/core/decimal.js";
import { ValidationError } from "../src/core/errors.js";

/** One problem with a strategy's parameters: the field (dotted path) and what is wrong with it. */
export interface ParamIssue {
  readonly field: string;
  readonly message: string;
}

/**
 * Every problem found in one strategy's parameters, reported together, one `field: problem` line each.
 * @example
 * try { glft.parseParams({ gamma: -1 }) } catch (e) { if (hasCode(e, "strategy_params_invalid")) … }
 */
export class StrategyParamsError extends ValidationError {
  readonly issues: readonly ParamIssue[];

  constructor(strategy: string, issues: readonly ParamIssue[]) {
    const lines = issues.map((i) => `${i.field}: ${i.message}`);
    super("strategy_params_invalid", `invalid ${strategy} parameters:\n${lines.join("\n")}`, {
      strategy,
      issues: issues.map((i) => ({ ...i })),
    });
    this.issues = Object.freeze(issues.map((i) => Object.freeze({ ...i })));
  }
}

/** Bounds for a numeric field: inclusive `min`/`max`, exclusive `gt`/`lt`. */
export interface NumberRule {
  readonly min?: number;
  readonly max?: number;
  readonly gt?: number;
  readonly lt?: number;
}

const MICRO = new Dec(1_000_000);
const PLAIN_DECIMAL = /^(?:\d+)(?:\.\d+)?$/;

/**
 * Reads one JSON object field by field, collecting issues instead of stopping at the first; every
 * key not read is refused as unknown. Invalid fields yield a placeholder: call `finish` before use.
 * @example
 * const r = new ParamReader(raw);
 * const gamma = r.number("gamma", { gt: 0 });
 * r.finish("glft"); // throws StrategyParamsError when anything was wrong
 */
export class ParamReader {
  readonly issues: ParamIssue[];
  readonly #obj: Readonly<Record<string, unknown>>;
  readonly #prefix: string;
  readonly #seen = new Set<string>();

  /** `root` names the whole object in issues (`params: must be a JSON object`); `prefix` nests its fields. */
  constructor(raw: unknown, opts: { prefix?: string; issues?: ParamIssue[]; root?: string } = {}) {
    const prefix = opts.prefix ?? "";
    this.issues = opts.issues ?? [];
    this.#prefix = prefix;
    const isObject = typeof raw === "object" && raw !== null && !Array.isArray(raw);
    if (!isObject) this.issue(prefix === "" ? (opts.root ?? "params") : prefix, "must be a JSON object");
    this.#obj = isObject ? (raw as Record<string, unknown>) : {};
  }

  /** Records a problem with `field` (already a full path). */
  issue(field: string, message: string): void {
    this.issues.push({ field, message });
  }

  /** The full path of a key of this object. */
  path(key: string): string {
    return this.#prefix === "" ? key : `${this.#prefix}.${key}`;
  }

  /** The raw value of `key` (undefined when absent), marked as known; for nested documents. */
  value(key: string): unknown {
    return this.#take(key);
  }

  /** A finite JSON number within `rule`; `fallback` when absent (required when no fallback). */
  number(key: string, rule: NumberRule, fallback?: number): number {
    const v = this.#take(key);
    if (v === undefined && fallback !== undefined) return fallback;
    if (typeof v !== "number" || !Number.isFinite(v)) {
      this.issue(this.path(key), v === undefined ? "required (a number)" : notANumber(v));
      return Number.NaN;
    }
    const problem = violates(v, rule);
    if (problem !== undefined) this.issue(this.path(key), problem);
    return v;
  }

  /** An optional finite JSON number within `rule`; undefined when absent. */
  optionalNumber(key: string, rule: NumberRule): number | undefined {
    if (this.#has(key)) return this.number(key, rule);
    this.#seen.add(key);
    return undefined;
  }

  /** One of `values` (a string); `fallback` when absent. */
  choice<T extends string>(key: string, values: readonly T[], fallback?: T): T {
    const v = this.#take(key);
    if (v === undefined && fallback !== undefined) return fallback;
    if (typeof v !== "string" || !(values as readonly string[]).includes(v)) {
      this.issue(this.path(key), `must be one of ${values.map((s) => JSON.stringify(s)).join(", ")}`);
      return values[0] as T;
    }
    return v as T;
  }

  /**
   * A positive decimal string with at most 6 decimals, as micro-units; `below` (micro) caps it
   * exclusively (e.g. 1_000_000n for a price margin).
   */
  micro(key: string, below?: bigint): bigint {
    const v = this.#take(key);
    if (typeof v !== "string" || !PLAIN_DECIMAL.test(v)) {
      this.issue(
        this.path(key),
        v === undefined
          ? "required (a decimal string)"
          : // "-1" is a decimal, only the wrong sign: say what is wrong with it.
            typeof v === "string" && PLAIN_DECIMAL.test(v.replace(/^-/, ""))
            ? "must be > 0"
            : 'must be a decimal string like "0.01"',
      );
      return 0n;
    }
    const scaled = new Dec(v).times(MICRO);
    if (!scaled.isInteger()) this.issue(this.path(key), "at most 6 decimals");
    else if (scaled.lte(0)) this.issue(this.path(key), "must be > 0");
    else if (below !== undefined && scaled.gte(below.toString())) {
      this.issue(this.path(key), `must be < ${new Dec(below.toString()).div(MICRO).toFixed()}`);
    } else return BigInt(scaled.toFixed(0));
    return 0n;
  }

  /** A non-empty JSON array, each element read by `each` with a reader prefixed `key[i]`. */
  list<T>(key: string, each: (item: ParamReader) => T): T[] {
    const v = this.#take(key);
    if (!Array.isArray(v) || v.length === 0) {
      this.issue(this.path(key), "must be a non-empty array");
      return [];
    }
    return v.map((item, i) => {
      const reader = new ParamReader(item, { prefix: `${this.path(key)}[${i}]`, issues: this.issues });
      const out = each(reader);
      reader.refuseUnknown();
      return out;
    });
  }

  /** Flags every key that no reader method asked for. */
  refuseUnknown(): void {
    for (const key of Object.keys(this.#obj)) {
      if (!this.#seen.has(key)) this.issue(this.path(key), "unknown parameter");
    }
  }

  /** Refuses unknown keys, then throws StrategyParamsError if any issue was recorded. */
  finish(strategy: string): void {
    this.refuseUnknown();
    if (this.issues.length > 0) throw new StrategyParamsError(strategy, this.issues);
  }

  #has(key: string): boolean {
    return Object.hasOwn(this.#obj, key);
  }

  #take(key: string): unknown {
    this.#seen.add(key);
    return this.#has(key) ? this.#obj[key] : undefined;
  }
}

// Prices and sizes are decimal strings but coefficients JSON numbers, so a quoted coefficient is
// the natural slip: say to drop the quotes rather than call "0.05" not a finite number.
function notANumber(v: unknown): string {
  const text = typeof v === "string" ? v.trim() : "";
  if (text !== "" && Number.isFinite(Number(text)))
    return `must be a JSON number: ${text}, not ${JSON.stringify(v)}`;
  return "must be a finite number";
}

function violates(v: number, rule: NumberRule): string | undefined {
  if (rule.gt !== undefined && !(v > rule.gt)) return `must be > ${rule.gt}`;
  if (rule.min !== undefined && v < rule.min) return `must be ≥ ${rule.min}`;
  if (rule.lt !== undefined && !(v < rule.lt)) return `must be < ${rule.lt}`;
  if (rule.max !== undefined && v > rule.max) return `must be ≤ ${rule.max}`;
  return undefined;
}
