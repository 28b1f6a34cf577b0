import { type ConfigReader, type Json, join } from "../config-reader.js";
import { LATENCY_MAX_MS, type LatencySpec } from "./latency.js";

const MAX_MS = LATENCY_MAX_MS;
const MAX_SAMPLES = 1_000_000;
const MS = { min: 0, max: MAX_MS, int: true };

const KEYS: Record<string, readonly string[]> = {
  constant: ["type", "ms"],
  uniform: ["type", "minMs", "maxMs"],
  lognormal: ["type", "medianMs", "sigma", "maxMs"],
  empirical: ["type", "samplesMs"],
};

/**
 * Reads one latency setting (`latency.feedMs`, `.entryMs`, `.responseMs`): a whole number of ms
 * (the original form, still the default 0), or a distribution object:
 * `{"type": "constant", "ms"}` (read as the number), `{"type": "uniform", "minMs", "maxMs"}`,
 * `{"type": "lognormal", "medianMs", "sigma", "maxMs"?}` (each draw capped at maxMs, default 100 ×
 * medianMs: LOGNORMAL_CAP_MEDIANS), `{"type": "empirical", "samplesMs": […]}`.
 * Problems go to `r.issues` under `latency.<key>…`; the default stands in for a bad value.
 * @example readLatency(r, { entryMs: { type: "uniform", minMs: 5, maxMs: 9 } }, "latency", "entryMs")
 */
export function readLatency(r: ConfigReader, o: Json, path: string, key: string): LatencySpec {
  const v = o[key];
  if (typeof v !== "object" || v === null || Array.isArray(v)) return r.num(o, path, key, 0, MS);
  const at = join(path, key);
  const type = (v as Json).type;
  const keys = typeof type === "string" ? KEYS[type] : undefined;
  if (keys === undefined) {
    r.issues.add(
      join(at, "type"),
      `must be one of ${Object.keys(KEYS)
        .map((k) => `"${k}"`)
        .join(", ")}`,
    );
    return 0;
  }
  const d = r.section(v, at, keys);
  switch (type) {
    case "constant":
      if (d.ms === undefined) r.issues.add(join(at, "ms"), "is required");
      return r.num(d, at, "ms", 0, MS);
    case "uniform": {
      const minMs = required(r, d, at, "minMs", MS);
      const maxMs = required(r, d, at, "maxMs", MS);
      if (maxMs < minMs) r.issues.add(join(at, "maxMs"), "must be >= minMs");
      return { type: "uniform", minMs, maxMs: Math.max(minMs, maxMs) };
    }
    case "lognormal": {
      const medianMs = required(r, d, at, "medianMs", { gt: 0, max: MAX_MS });
      const sigma = required(r, d, at, "sigma", { min: 0, max: 5 });
      const spec = { type: "lognormal", medianMs: medianMs > 0 ? medianMs : 1, sigma } as const;
      if (d.maxMs === undefined) return spec; // the summary echoes the spec as written
      const maxMs = r.num(d, at, "maxMs", MAX_MS, MS);
      // A cap below the median flattens the distribution into (nearly) a constant: a typo, not a model.
      if (maxMs < spec.medianMs) r.issues.add(join(at, "maxMs"), "must be >= medianMs");
      return { ...spec, maxMs: Math.max(spec.medianMs, maxMs) };
    }
    default:
      return { type: "empirical", samplesMs: samples(r, d.samplesMs, join(at, "samplesMs")) };
  }
}

function required(
  r: ConfigReader,
  d: Json,
  at: string,
  key: string,
  rule: Parameters<ConfigReader["num"]>[4],
) {
  if (d[key] === undefined) r.issues.add(join(at, key), "is required");
  return r.num(d, at, key, 0, rule);
}

function samples(r: ConfigReader, v: unknown, at: string): number[] {
  const ok =
    Array.isArray(v) &&
    v.length > 0 &&
    v.length <= MAX_SAMPLES &&
    v.every((x) => typeof x === "number" && Number.isFinite(x) && x >= 0 && x <= MAX_MS);
  if (ok) return v as number[];
  r.issues.add(at, `must be a non-empty array (at most ${MAX_SAMPLES}) of ms in [0, ${MAX_MS}]`);
  return [0];
}
