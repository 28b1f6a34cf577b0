/** One sample line of the Prometheus text format. */
export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** A metric family: its TYPE, HELP and samples (histogram _bucket/_sum/_count included). */
export interface Family {
  readonly type: string;
  readonly help: string;
  readonly samples: Sample[];
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/**
 * Parses the Prometheus text exposition format (what /metrics serves) into families by name, so
 * tests can check types, label names and values without string matching.
 */
export function parseExposition(text: string): Map<string, Family> {
  const out = new Map<string, Family>();
  const family = (name: string) => {
    let f = out.get(name);
    if (f === undefined) {
      f = { type: "untyped", help: "", samples: [] };
      out.set(name, f);
    }
    return f;
  };
  for (const line of text.split("\n")) {
    if (line.startsWith("# TYPE ")) {
      const [name = "", type = ""] = line.slice(7).split(" ");
      out.set(name, { ...family(name), type });
    } else if (line.startsWith("# HELP ")) {
      const rest = line.slice(7);
      const name = rest.split(" ")[0] ?? "";
      out.set(name, { ...family(name), help: rest.slice(name.length + 1) });
    } else if (line !== "" && !line.startsWith("#")) {
      const m = SAMPLE.exec(line);
      if (m === null) throw new Error(`unparsable sample line: ${line}`);
      const [, name = "", rawLabels = "", value = ""] = m;
      const labels: Record<string, string> = {};
      for (const l of rawLabels.matchAll(LABEL)) labels[l[1] as string] = l[2] as string;
      const base = name.replace(/_(bucket|sum|count)$/, "");
      const owner = out.has(name) ? name : base;
      family(owner).samples.push({ name, labels, value: Number(value) });
    }
  }
  return out;
}

/** Label names used by a family's samples (le of histogram buckets excluded). */
export function labelNamesOf(f: Family): string[] {
  const names = new Set<string>();
  for (const s of f.samples) for (const k of Object.keys(s.labels)) if (k !== "le") names.add(k);
  return [...names].sort();
}

/** Sum of the samples named `name` whose labels include `match`. */
export function sumOf(
  families: Map<string, Family>,
  name: string,
  match: Record<string, string> = {},
): number {
  const base = name.replace(/_(bucket|sum|count)$/, "");
  const f = families.get(name) ?? families.get(base);
  let total = 0;
  for (const s of f?.samples ?? []) {
    if (s.name !== name) continue;
    if (Object.entries(match).every(([k, v]) => s.labels[k] === v)) total += s.value;
  }
  return total;
}
