/** One step of a JSON path: an object key or an array index. */
export type PathStep = string | number;

const STEP = /^([A-Za-z_$][\w$-]*)((?:\[\d{1,6}\])*)$/;
/** Keys a path may not name: setting them reaches an object's prototype, not a parameter. */
const PROTO_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/**
 * Parses a dotted path with array indices (`gamma`, `bands[0].margin`, `markouts[1].perShare`)
 * into steps, or undefined when it is not one (`__proto__`, `constructor` and `prototype` are not
 * parameters: a grid axis on one would run every point alike).
 * @example parsePath("bands[1].size") // ["bands", 1, "size"]
 */
export function parsePath(text: string): PathStep[] | undefined {
  if (text === "") return undefined;
  const steps: PathStep[] = [];
  for (const part of text.split(".")) {
    const m = STEP.exec(part);
    if (m === null || PROTO_KEYS.has(m[1] as string)) return undefined;
    steps.push(m[1] as string);
    for (const idx of (m[2] as string).matchAll(/\[(\d+)\]/g)) steps.push(Number(idx[1]));
  }
  return steps;
}

/** The path's text form: `a.b[0].c`. */
export function pathText(steps: readonly PathStep[]): string {
  let out = "";
  for (const s of steps) out += typeof s === "number" ? `[${s}]` : out === "" ? s : `.${s}`;
  return out;
}

/**
 * The value at `steps` inside `root`, or undefined when any step is missing.
 * @example valueAt({ a: [{ b: 1 }] }, ["a", 0, "b"]) // 1
 */
export function valueAt(root: unknown, steps: readonly PathStep[]): unknown {
  let cur = root;
  for (const s of steps) {
    if (typeof s === "number") {
      if (!Array.isArray(cur) || s >= cur.length) return undefined;
      cur = cur[s];
    } else {
      if (!isObject(cur) || !Object.hasOwn(cur, s)) return undefined;
      cur = cur[s];
    }
  }
  return cur;
}

/**
 * A copy of `root` with `value` at `steps`. Every container on the way must exist (an object for a
 * key, an array long enough for an index) except the last key, which may be new: a sweep varies
 * the parameters the config has, it does not invent structure. Returns the problem as a string
 * instead when the path does not fit (paths in it start with `rootName`).
 * @example withValueAt({ bands: [{ margin: "0.01" }] }, ["bands", 0, "margin"], "0.02")
 */
export function withValueAt(
  root: unknown,
  steps: readonly PathStep[],
  value: unknown,
  rootName = "(root)",
): unknown {
  const copy = structuredClone(root);
  let cur: unknown = copy;
  for (let i = 0; i < steps.length; i++) {
    const s = steps[i] as PathStep;
    const last = i === steps.length - 1;
    const here = under(rootName, steps.slice(0, i));
    if (typeof s === "number") {
      if (!Array.isArray(cur)) return problem(`${here} is not an array`);
      if (s >= cur.length) return problem(`${here} has no element [${s}] (length ${cur.length})`);
      if (last) cur[s] = value;
      else cur = cur[s];
    } else {
      if (!isObject(cur)) return problem(`${here} is not an object`);
      if (last) cur[s] = value;
      else if (!Object.hasOwn(cur, s)) return problem(`${under(rootName, steps.slice(0, i + 1))} is absent`);
      else cur = cur[s];
    }
  }
  return copy;
}

/** What withValueAt returns when the path does not fit the document. */
export class PathProblem {
  constructor(readonly message: string) {}
}

function under(rootName: string, steps: readonly PathStep[]): string {
  const rest = pathText(steps);
  return rest === "" ? rootName : typeof steps[0] === "number" ? rootName + rest : `${rootName}.${rest}`;
}

function problem(message: string): PathProblem {
  return new PathProblem(message);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
