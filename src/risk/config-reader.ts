import { MmError } from "../core/errors.js";

/** One problem in a risk configuration: the dotted setting and what is wrong with it. */
export interface RiskConfigIssue {
  readonly field: string;
  readonly message: string;
}

/**
 * Every problem of one risk configuration, reported together, code `risk_config_invalid`. The
 * message has one `<field>: <problem>` line per issue.
 */
export class RiskConfigError extends MmError {
  readonly issues: readonly RiskConfigIssue[];

  constructor(issues: readonly RiskConfigIssue[]) {
    super("risk_config_invalid", issues.map((i) => `${i.field}: ${i.message}`).join("\n"), {
      issues: issues.map((i) => ({ ...i })),
    });
    this.issues = issues;
  }
}

const AMOUNT = /^\d+(?:\.\d{1,6})?$/;

/**
 * Reads a raw (JSON) settings tree, collecting problems instead of throwing at the first one, so an
 * operator sees every bad field of a file in one go. Missing settings take the given default.
 */
export class ConfigReader {
  readonly issues: RiskConfigIssue[] = [];

  /** Adds an issue for `field`. */
  problem(field: string, message: string): void {
    this.issues.push({ field, message });
  }

  /**
   * The object at `path` (undefined → {}); anything else and any key not in `keys` is an issue
   * (a misspelt limit must not silently fall back to its default).
   */
  section(raw: unknown, path: string, keys: readonly string[]): Record<string, unknown> {
    if (raw === undefined) return {};
    if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
      this.problem(path || "(root)", "must be an object");
      return {};
    }
    const obj = raw as Record<string, unknown>;
    for (const k of Object.keys(obj)) {
      if (!keys.includes(k))
        this.problem(join(path, k), `unknown setting (expected one of ${keys.join(", ")})`);
    }
    return obj;
  }

  /**
   * A positive amount given as a decimal string with at most 6 decimals, in micro-units. Binary
   * numbers are refused: a limit on money is written exactly or not at all.
   */
  amount(obj: Record<string, unknown>, path: string, key: string, dflt: string): bigint {
    const v = obj[key] ?? dflt;
    const field = join(path, key);
    if (typeof v !== "string" || !AMOUNT.test(v)) {
      this.problem(field, `must be a decimal string with at most 6 decimals, got ${show(v)}`);
      return 0n;
    }
    const [whole = "0", frac = ""] = v.split(".");
    const micro = BigInt(whole) * 1_000_000n + BigInt(frac.padEnd(6, "0"));
    if (micro <= 0n) this.problem(field, "must be > 0");
    return micro;
  }

  /**
   * An integer within [min, max]. `belowMin` says why the floor is there; it is added to the
   * message of an integer under it (the operator chose the value, so the reason matters).
   */
  int(
    obj: Record<string, unknown>,
    path: string,
    key: string,
    dflt: number,
    range: { readonly min: number; readonly max: number; readonly belowMin?: string },
  ): number {
    const { min, max, belowMin } = range;
    const v = obj[key] ?? dflt;
    if (typeof v !== "number" || !Number.isSafeInteger(v) || v < min || v > max) {
      const why =
        belowMin !== undefined && Number.isSafeInteger(v) && (v as number) < min ? `: ${belowMin}` : "";
      this.problem(join(path, key), `must be an integer in [${min}, ${max}], got ${show(v)}${why}`);
      return dflt;
    }
    return v;
  }

  /** One of a fixed set of strings. */
  oneOf<T extends string>(
    obj: Record<string, unknown>,
    path: string,
    key: string,
    allowed: readonly T[],
    dflt: T,
  ): T {
    const v = obj[key] ?? dflt;
    if (typeof v !== "string" || !(allowed as readonly string[]).includes(v)) {
      this.problem(join(path, key), `must be one of ${allowed.join(", ")}, got ${show(v)}`);
      return dflt;
    }
    return v as T;
  }

  /** A list of non-empty strings. */
  strings(
    obj: Record<string, unknown>,
    path: string,
    key: string,
    dflt: readonly string[],
  ): readonly string[] {
    const v = obj[key] ?? dflt;
    if (!Array.isArray(v) || !v.every((s) => typeof s === "string" && s.length > 0)) {
      this.problem(join(path, key), "must be a list of non-empty strings");
      return dflt;
    }
    return Object.freeze([...v] as string[]);
  }
}

function join(path: string, key: string): string {
  return path === "" ? key : `${path}.${key}`;
}

function show(v: unknown): string {
  if (typeof v === "string") return JSON.stringify(v.length > 30 ? `${v.slice(0, 30)}…` : v);
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  return v === null ? "null" : Array.isArray(v) ? "a list" : typeof v;
}
