import type { ConfigIssue } from "./errors.js";
import { checkFormat } from "./formats.js";
import { NestedSettingError } from "./formats-engine.js";
import { type RawConfig, settings } from "./schema.js";
import { secretShape } from "./secret-shapes.js";

/**
 * Checks every (non-secret) setting of the merged configuration against its format, naming where a
 * bad value came from (`source`: path → "in <file>" / "from env <VAR>"). Returns the issues and the
 * set of bad paths, which the cross-field rules skip.
 */
export function validateSettings(
  raw: RawConfig,
  source: ReadonlyMap<string, string>,
): { issues: ConfigIssue[]; bad: Set<string> } {
  const issues: ConfigIssue[] = [];
  const bad = new Set<string>();
  for (const { path, spec } of settings()) {
    if (spec.envOnly === true) continue;
    const value = valueAt(raw, path);
    const where = source.get(path);
    const suffix = where === undefined ? "" : ` (${where})`;
    const shape = secretIn(value);
    if (shape !== null) {
      // Files were screened already; this catches a key pasted into an MM_* variable of another setting.
      bad.add(path);
      issues.push({
        field: path,
        message: `looks like ${shape}, which belongs only in its secret setting${suffix}`,
      });
      continue;
    }
    try {
      checkFormat(spec.format, value, spec);
    } catch (e) {
      bad.add(path);
      // A JSON-valued setting reports each bad field inside it on its own line.
      const nested =
        e instanceof NestedSettingError ? e.issues : [{ field: "", message: (e as Error).message }];
      for (const i of nested) {
        issues.push({
          field: i.field === "" ? path : `${path}.${i.field}`,
          message: `${i.message}${suffix}`,
        });
      }
    }
  }
  return { issues, bad };
}

/**
 * The secret shape found anywhere in a setting's value (a string, or a JSON value at any depth, its
 * keys included: a market-slug key is echoed in messages), if any. A JSON-valued MM_* variable is
 * thus screened as deep as a config file is. Depth is bounded before this runs (dropDeepEnv).
 */
function secretIn(value: unknown): ReturnType<typeof secretShape> {
  if (typeof value === "string") return secretShape(value);
  if (typeof value !== "object" || value === null) return null;
  const keyed = !Array.isArray(value);
  for (const [k, v] of Object.entries(value)) {
    const shape = (keyed ? secretShape(k) : null) ?? secretIn(v);
    if (shape !== null) return shape;
  }
  return null;
}

function valueAt(raw: RawConfig, path: string): unknown {
  let node: unknown = raw;
  for (const key of path.split(".")) node = (node as Record<string, unknown>)[key];
  return node;
}
