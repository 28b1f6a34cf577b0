import type convict from "convict";
import { type RawConfig, type SettingSpec, settings } from "./schema.js";

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** Recursive merge of plain objects; arrays and scalars of `over` replace those of `base`. */
function deepMerge(base: unknown, over: unknown): unknown {
  if (!isObject(base) || !isObject(over)) return over;
  const out: Json = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = Object.hasOwn(out, k) ? deepMerge(out[k], v) : v;
  return out;
}

function combine(how: NonNullable<SettingSpec["layer"]>, base: unknown, over: unknown): unknown {
  if (how === "replace") return over;
  if (how === "entries") return isObject(base) && isObject(over) ? { ...base, ...over } : over;
  return deepMerge(base, over);
}

/**
 * Layers the JSON-valued settings (those with a `layer`) that convict would otherwise overlay key
 * by key — wrong for a strategy (switching from bands to glft would keep the bands' parameters)
 * and impossible for nested trees. Each file's values are taken out of its data before convict
 * loads it and combined here, in file order, over the schema default; the environment still wins.
 * @example
 * const json = new JsonLayers();
 * for (const f of files) { json.take(f.data); conf.load(f.data); }
 * json.apply(conf, env);
 */
export class JsonLayers {
  readonly #specs = settings().filter(({ spec }) => spec.layer !== undefined);
  readonly #values = new Map<string, unknown>();

  /** Removes the layered settings from one file's checked data and combines them in. */
  take(data: Json): void {
    for (const { path, spec } of this.#specs) {
      const keys = path.split(".");
      const last = keys.pop() as string;
      let parent: unknown = data;
      for (const k of keys) parent = isObject(parent) ? parent[k] : undefined;
      if (!isObject(parent) || !Object.hasOwn(parent, last)) continue;
      const value = parent[last];
      delete parent[last];
      const base = this.#values.has(path) ? this.#values.get(path) : structuredClone(spec.default);
      this.#values.set(path, combine(spec.layer ?? "replace", base, value));
    }
  }

  /** Sets the combined file values into convict, except where an MM_* variable overrides them. */
  apply(conf: convict.Config<RawConfig>, env: NodeJS.ProcessEnv): void {
    for (const { path, spec } of this.#specs) {
      if (env[spec.env] !== undefined || !this.#values.has(path)) continue;
      (conf as unknown as { set(k: string, v: unknown): void }).set(path, this.#values.get(path));
    }
  }
}
