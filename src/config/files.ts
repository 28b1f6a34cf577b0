import { readFileSync } from "node:fs";
import { exceedsDepth, MAX_CONFIG_DEPTH } from "./depth.js";
import { jsonSyntaxProblem } from "./env-json.js";
import { editDistance } from "./env-names.js";
import type { ConfigIssue } from "./errors.js";
import { type JsonType, jsonTypeOf } from "./formats.js";
import { isSetting, type SchemaNode, type SettingSpec, schema } from "./schema.js";
import { isSecretKeyName, secretShape } from "./secret-shapes.js";

/** A config file after the structural check: only known settings of the right JSON type remain. */
export interface CheckedFile {
  /** The settings to layer (unknown, mistyped and secret entries removed). */
  readonly data: Record<string, unknown>;
  /** Dotted paths of the settings this file sets. */
  readonly paths: readonly string[];
  readonly issues: readonly ConfigIssue[];
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Reads one JSON config file and checks its structure against the schema: unknown keys, wrong JSON
 * types and any secret (a secret-named key or a secret-shaped value, wherever it sits) are issues.
 * Never quotes file content in an issue: a parse error could otherwise echo a pasted key.
 */
export function readConfigFile(file: string): CheckedFile {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? "unknown error";
    return { data: {}, paths: [], issues: [{ field: file, message: `cannot read config file (${code})` }] };
  }
  let parsed: unknown;
  try {
    parsed = text.trim() === "" ? {} : JSON.parse(text);
  } catch {
    // Where, by line and column (a file is edited by line), never what: the text may hold a key.
    const problem = jsonSyntaxProblem(text, (at) => lineColumn(text, at)) ?? "is not valid JSON";
    return { data: {}, paths: [], issues: [{ field: file, message: problem }] };
  }
  if (!isObject(parsed)) {
    return {
      data: {},
      paths: [],
      issues: [{ field: file, message: "must contain a JSON object of settings" }],
    };
  }
  return checkObject(parsed, file);
}

function checkObject(parsed: Json, file: string): CheckedFile {
  const issues: ConfigIssue[] = [];
  const paths: string[] = [];
  const data = checkGroup(parsed, schema, "", file, issues, paths);
  return { data, paths, issues };
}

function checkGroup(
  obj: Json,
  group: SchemaNode,
  prefix: string,
  file: string,
  issues: ConfigIssue[],
  paths: string[],
): Json {
  const out: Json = {};
  const where = `(in ${file})`;
  for (const [key, value] of Object.entries(obj)) {
    const path = prefix === "" ? key : `${prefix}.${key}`;
    const child = Object.hasOwn(group, key) ? (group as Record<string, SchemaNode>)[key] : undefined;
    if (child !== undefined && isSetting(child) && child.envOnly === true) {
      issues.push({
        field: path,
        message: `secret values are never read from config files ${where}; ${HOW}`,
      });
      continue;
    }
    if (child !== undefined && !isSetting(child)) {
      if (isObject(value)) out[key] = checkGroup(value, child, path, file, issues, paths);
      else issues.push({ field: path, message: `must be an object of settings ${where}` });
      continue;
    }
    // Before any recursive reader sees it: a value nested thousands deep would overflow the stack.
    if (exceedsDepth(value, MAX_CONFIG_DEPTH)) {
      issues.push({ field: path, message: `is nested more than ${MAX_CONFIG_DEPTH} levels deep ${where}` });
      continue;
    }
    // Keys inside a known setting are market slugs (tickSizes…), not names to judge.
    const secrets = findSecrets(key, value, path, file, child === undefined);
    if (secrets.length > 0) {
      issues.push(...secrets);
    } else if (child === undefined) {
      const meant = nearestKey(key, group);
      const hint =
        meant === undefined ? "" : `: did you mean ${prefix === "" ? meant : `${prefix}.${meant}`}?`;
      issues.push({ field: path, message: `unknown setting ${where}${hint}` });
    } else {
      const taken = booleanAsString(value, child.format);
      const problem = jsonProblem(taken, jsonTypeOf(child.format));
      if (problem === null) {
        out[key] = taken;
        paths.push(path);
      } else {
        issues.push({ field: path, message: `${problem} ${where}` });
      }
    }
  }
  return out;
}

/**
 * The key of `group` an unknown `key` was probably meant as: the same once case, `_` and `-` are
 * set aside (snake_case for camelCase, Hummingbot's habit), else a slip of the keyboard (1 edit; 2
 * for names of 10 characters or more). Env-only settings (the secrets) are never offered.
 * @example nearestKey("request_timeout_ms", exchangeGroup) // "requestTimeoutMs"
 */
function nearestKey(key: string, group: SchemaNode): string | undefined {
  const bare = (k: string) => k.toLowerCase().replace(/[-_]/g, "");
  const wanted = bare(key);
  let best: { key: string; distance: number } | undefined;
  for (const [name, node] of Object.entries(group as Record<string, SchemaNode>)) {
    if (isSetting(node) && node.envOnly === true) continue;
    const target = bare(name);
    const distance = editDistance(wanted, target);
    if (distance > (target.length < 10 ? 1 : 2)) continue;
    if (best === undefined || distance < best.distance) best = { key: name, distance };
  }
  return best?.key;
}

/** `line L, column C` (1-based) of a 0-based offset into `text`. */
function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset).split("\n");
  return `line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1}`;
}

const HOW =
  "set the API key with MM_API_KEY or secrets.apiKeyFile and the private key with MM_PRIVATE_KEY or secrets.privateKeyFile";

/**
 * Secrets at or under `key: value`: a secret-named key (apiKey, private_key, secret…), a
 * secret-shaped key or string, at any depth, in known and unknown settings alike.
 */
function findSecrets(key: string, value: unknown, path: string, file: string, names: boolean): ConfigIssue[] {
  const where = `(in ${file})`;
  if (names && isSecretKeyName(key)) {
    return [{ field: path, message: `secret values are never read from config files ${where}; ${HOW}` }];
  }
  // A key pasted as a map key (a slug of tickSizes…) would be echoed by a later message, so the
  // issue names the key's parent, never the key.
  const keyShape = secretShape(key);
  if (keyShape !== null) {
    const parent = path === key ? "" : path.slice(0, path.length - key.length - 1);
    return [
      {
        field: parent === "" ? file : parent,
        message: `has a key that looks like ${keyShape}: secrets are never read from config files ${where}; ${HOW}`,
      },
    ];
  }
  if (typeof value === "string") {
    const shape = secretShape(value);
    return shape === null
      ? []
      : [
          {
            field: path,
            message: `looks like ${shape}: secrets are never read from config files ${where}; ${HOW}`,
          },
        ];
  }
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([k, v]) => findSecrets(k, v, `${path}.${k}`, file, names));
}

/**
 * A JSON boolean for a setting whose values are the strings "true" and "false" (journal.enabled,
 * log.pretty) as that string: `mm config` prints those settings as booleans (the loaded config holds
 * booleans), and its output must load back from a file. Any other value is returned unchanged.
 */
function booleanAsString(value: unknown, format: SettingSpec["format"]): unknown {
  if (typeof value !== "boolean" || typeof format === "string") return value;
  return format.includes("true") && format.includes("false") ? String(value) : value;
}

/** Why a file value has the wrong JSON type for its setting, or null. Maps must hold strings. */
function jsonProblem(value: unknown, type: JsonType): string | null {
  const kind = Array.isArray(value) ? "array" : value === null ? "null" : typeof value;
  if (type === "json") return isObject(value) ? null : `must be a JSON object, got ${kind}`;
  if (type === "object") {
    if (!isObject(value)) return `must be a JSON object, got ${kind === "object" ? "an object" : kind}`;
    const bad = Object.entries(value).find(([, v]) => typeof v !== "string");
    return bad === undefined ? null : `${JSON.stringify(bad[0])} must map to a decimal string`;
  }
  return kind === type ? null : `must be a JSON ${type}, got ${kind === "object" ? "an object" : kind}`;
}
