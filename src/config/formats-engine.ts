import { StrategyParamsError } from "../../strategies/params.js";
import { parseStrategyConfig } from "../../strategies/registry.js";
import { MmError } from "../core/errors.js";
import { isValidSessionTag } from "../core/ids.js";
import { parseRiskConfig } from "../risk/config.js";
import { RiskConfigError } from "../risk/config-reader.js";
import type { ConfigIssue } from "./errors.js";
import type { FormatDef } from "./formats.js";
import { showValue } from "./secret-shapes.js";

/**
 * Thrown by the validator of a JSON-valued setting with one issue per field inside it; `field` is
 * relative to the setting ("params.gamma"; "" for the setting itself). validate.ts turns each into
 * its own `<setting>.<field>: problem` line.
 */
export class NestedSettingError extends MmError {
  readonly issues: readonly ConfigIssue[];

  constructor(issues: readonly ConfigIssue[]) {
    super("setting_invalid", issues.map((i) => `${i.field}: ${i.message}`).join("; "), {
      issues: issues.map((i) => ({ ...i })),
    });
    this.issues = issues;
  }
}

const fail = (message: string): never => {
  throw new Error(message);
};

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

const parseJson = (raw: string): unknown => {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
};

/** The issues of one `{name, params}` entry, fields relative to the entry. */
export function strategyIssues(value: unknown): ConfigIssue[] {
  try {
    parseStrategyConfig(value);
    return [];
  } catch (e) {
    if (!(e instanceof StrategyParamsError)) throw e;
    // "strategy" is how the registry names the entry itself.
    return e.issues.map((i) => ({ field: i.field === "strategy" ? "" : i.field, message: i.message }));
  }
}

const SLUG = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

/** Formats of the trading settings (engine.*, risk), merged into FORMATS by formats.ts. */
export const ENGINE_FORMATS = {
  "mm-market-list": {
    describe: 'JSON array of market slugs, or ["*"]',
    jsonType: "array",
    validate(value) {
      if (!Array.isArray(value) || !value.every((s) => typeof s === "string")) {
        fail(`must be an array of market slugs, got ${showValue(value)}`);
      }
      const list = value as string[];
      if (list.includes("*") && list.length > 1) fail('must be ["*"] alone or a list of slugs, not both');
      const bad = list.find((s) => s !== "*" && !SLUG.test(s));
      if (bad !== undefined) fail(`has an invalid market slug ${showValue(bad)}`);
      if (new Set(list).size !== list.length) fail("lists a market twice");
    },
    coerce(raw) {
      const text = raw.trim();
      if (text.startsWith("[")) return parseJson(text);
      return text === "" ? [] : text.split(",").map((s) => s.trim());
    },
  },
  "mm-session": {
    describe: "1-16 lowercase letters and digits, or empty",
    jsonType: "string",
    validate(value) {
      if (value === "") return;
      if (typeof value !== "string" || !isValidSessionTag(value)) {
        fail(
          `must be 1-16 lowercase letters and digits (or empty for a random one), got ${showValue(value)}`,
        );
      }
    },
  },
  "mm-strategy": {
    describe: "JSON object {name, params}",
    jsonType: "json",
    validate(value) {
      const issues = strategyIssues(value);
      if (issues.length > 0) throw new NestedSettingError(issues);
    },
    coerce: parseJson,
  },
  "mm-strategy-map": {
    describe: "JSON object: market slug → {name, params}",
    jsonType: "json",
    validate(value) {
      if (!isObject(value))
        fail(`must be a JSON object mapping market slugs to strategies, got ${showValue(value)}`);
      const issues: ConfigIssue[] = [];
      for (const [slug, entry] of Object.entries(value as Record<string, unknown>)) {
        if (!SLUG.test(slug))
          issues.push({ field: "", message: `has an invalid market slug ${showValue(slug)}` });
        for (const i of strategyIssues(entry)) {
          issues.push({ field: i.field === "" ? slug : `${slug}.${i.field}`, message: i.message });
        }
      }
      if (issues.length > 0) throw new NestedSettingError(issues);
    },
    coerce: parseJson,
  },
  "mm-risk": {
    describe: "JSON object (see src/risk/config.ts)",
    jsonType: "json",
    validate(value) {
      try {
        parseRiskConfig(value);
      } catch (e) {
        if (!(e instanceof RiskConfigError)) throw e;
        throw new NestedSettingError(
          e.issues.map((i) => ({ field: i.field === "(root)" ? "" : i.field, message: i.message })),
        );
      }
    },
    coerce: parseJson,
  },
} satisfies Record<string, FormatDef>;
