import fc from "fast-check";

/*
 * Mutations of valid inputs, at two levels:
 * - tree mutations of a parsed JSON value: delete, replace with a nasty value, retype, duplicate,
 *   add a key, swap two nodes (each picks its node by index over the tree's nodes, preorder);
 * - text mutations of its JSON text: truncate, insert garbage, delete or duplicate a range,
 *   replace a character, wrap in deep nesting, duplicate a key, swap a number literal for an
 *   extreme one (1e400 parses as Infinity), BOM and whitespace.
 */

export type Path = readonly (string | number)[];

/** Every node's path, preorder, the root (`[]`) first. */
export function paths(value: unknown): Path[] {
  const out: Path[] = [];
  const walk = (v: unknown, p: Path, depth: number) => {
    out.push(p);
    if (depth > 40 || typeof v !== "object" || v === null) return;
    // An index loop: a swap can leave holes in an array, which map() would keep as holes.
    if (Array.isArray(v)) for (let i = 0; i < v.length; i++) walk(v[i], [...p, i], depth + 1);
    else for (const [k, x] of Object.entries(v)) walk(x, [...p, k], depth + 1);
  };
  walk(value, [], 0);
  return out;
}

/** The value at `path`, undefined when absent. */
export function getAt(value: unknown, path: Path): unknown {
  let v = value;
  for (const k of path) {
    if (typeof v !== "object" || v === null) return undefined;
    v = (v as Record<string | number, unknown>)[k];
  }
  return v;
}

/** A copy of `value` with the node at `path` replaced (or removed, when `remove`). */
function withAt(value: unknown, path: Path, next: unknown, remove = false): unknown {
  if (path.length === 0) return remove ? undefined : next;
  const [k, ...rest] = path;
  if (Array.isArray(value)) {
    // A path taken before a swap may name a key the array does not have: only indexes apply.
    if (typeof k !== "number") return value;
    const copy: unknown[] = Array.prototype.slice.call(value);
    if (rest.length === 0 && remove) copy.splice(k, 1);
    else copy[k] = withAt(copy[k], rest, next, remove);
    return copy;
  }
  if (typeof value === "object" && value !== null) {
    const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    if (rest.length === 0 && remove) delete copy[k as string];
    else define(copy, k as string, withAt(copy[k as string], rest, next, remove));
    return copy;
  }
  return value;
}

/** Sets an own property, even one named `__proto__` (an assignment would set the prototype). */
export function define(o: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Deep nesting of `[`…`]` or `{"a":`…`}` around `inner`, as a value. */
export function nest(depth: number, kind: "array" | "object", inner: unknown = null): unknown {
  let v = inner;
  for (let i = 0; i < depth; i++) v = kind === "array" ? [v] : { a: v };
  return v;
}

const NASTY_STRINGS = [
  "",
  " ",
  "NaN",
  "Infinity",
  "-Infinity",
  "-1",
  "-0",
  "0",
  "00",
  "1e3",
  "1E-7",
  "0x1f",
  "1_000",
  "١٢٣",
  "0.1.2",
  ".5",
  "5.",
  "+1",
  " 1",
  "1 ",
  "1\n",
  "\u0000",
  "\ud800",
  "💥",
  "0.0000001",
  "1.0000000",
  "1.5",
  "999999999999999999999999999999999999999999999999",
  `0.${"0".repeat(60)}1`,
  "__proto__",
  "constructor",
  "toString",
  "hasOwnProperty",
  "true",
  "null",
  "[]",
  "{}",
  "buy",
  "SELL",
  `0x${"ab".repeat(32)}`,
  `0x${"AB".repeat(20)}`,
  "2026-01-01T00:00:00Z",
];

const NASTY_NUMBERS = [
  0,
  -1,
  1.5,
  -0.5,
  1e308,
  -1e308,
  2 ** 53,
  2 ** 53 + 2,
  Number.MAX_SAFE_INTEGER,
  5e-324,
  1e21,
  123456789012345680000,
  4294967296,
  -2147483649,
];

/** Values that break parsers: edge strings, extreme numbers, wrong types, huge and deep values. */
export const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom<unknown>(...NASTY_STRINGS, ...NASTY_NUMBERS, true, false, null) },
  {
    weight: 2,
    arbitrary: fc.constantFrom<unknown>(
      [],
      {},
      [null],
      { "": "" },
      [[]],
      JSON.parse('{"__proto__": {"polluted": true}}'),
    ),
  },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 400 }).map((n) => "9".repeat(n)) },
  { weight: 1, arbitrary: fc.constantFrom("9".repeat(20_000), "x".repeat(20_000)) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.integer({ min: 2, max: 500 }), fc.constantFrom<"array" | "object">("array", "object"))
      .map(([d, k]) => nest(d, k)),
  },
);

function retype(v: unknown): unknown {
  if (typeof v === "string") {
    const n = Number(v);
    return v.trim() !== "" && Number.isFinite(n) ? n : v.length;
  }
  if (typeof v === "number") return String(v);
  if (typeof v === "boolean") return String(v);
  if (v === null) return "null";
  if (Array.isArray(v)) return { ...v };
  if (typeof v === "object") return Object.values(v as object);
  return null;
}

/** One tree mutation; `at` picks the node (modulo the node count). */
export type Mutation =
  | { readonly op: "delete"; readonly at: number }
  | { readonly op: "replace"; readonly at: number; readonly value: unknown }
  | { readonly op: "retype"; readonly at: number }
  | { readonly op: "duplicate"; readonly at: number }
  | { readonly op: "addKey"; readonly at: number; readonly key: string; readonly value: unknown }
  | { readonly op: "swap"; readonly at: number; readonly with: number };

const at = fc.nat();
const keyArb = fc.oneof(
  fc.constantFrom("__proto__", "constructor", "type", "data", "id", "sid", "seq", "price", "extra", ""),
  fc.string({ maxLength: 8 }),
);

/** An arbitrary tree mutation. */
export const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant("delete" as const), at }),
  { weight: 3, arbitrary: fc.record({ op: fc.constant("replace" as const), at, value: nastyValue }) },
  fc.record({ op: fc.constant("retype" as const), at }),
  fc.record({ op: fc.constant("duplicate" as const), at }),
  fc.record({ op: fc.constant("addKey" as const), at, key: keyArb, value: nastyValue }),
  fc.record({ op: fc.constant("swap" as const), at, with: fc.nat() }),
);

/** One to four tree mutations. */
export const mutationsArb = fc.array(mutationArb, { minLength: 1, maxLength: 4 });

/** Applies a tree mutation to a copy of `value` (the input is never modified). */
export function mutate(value: unknown, m: Mutation): unknown {
  const all = paths(value);
  const p = all[m.at % all.length] as Path;
  const node = getAt(value, p);
  switch (m.op) {
    case "delete":
      return withAt(value, p, undefined, true);
    case "replace":
      return withAt(value, p, m.value);
    case "retype":
      return withAt(value, p, retype(node));
    case "duplicate": {
      if (Array.isArray(node)) return withAt(value, p, [...node, ...node.slice(0, 1)]);
      const parent = getAt(value, p.slice(0, -1));
      const last = p[p.length - 1];
      if (Array.isArray(parent) && typeof last === "number") {
        return withAt(value, p.slice(0, -1), [...parent.slice(0, last + 1), node, ...parent.slice(last + 1)]);
      }
      return withAt(value, p, [node, node]);
    }
    case "addKey": {
      if (typeof node !== "object" || node === null || Array.isArray(node)) return withAt(value, p, m.value);
      const copy: Record<string, unknown> = { ...(node as Record<string, unknown>) };
      define(copy, m.key, m.value);
      return withAt(value, p, copy);
    }
    case "swap": {
      const q = all[m.with % all.length] as Path;
      // Swapping a node with one of its own ancestors or descendants is just a replace.
      const other = getAt(value, q);
      return withAt(withAt(value, p, other), q, node);
    }
  }
}

/** Applies mutations in order. */
export function mutateAll(value: unknown, ms: readonly Mutation[]): unknown {
  return ms.reduce((v, m) => mutate(v, m), value);
}

/** One text mutation; positions are taken modulo the text length. */
export type TextMutation =
  | { readonly op: "truncate"; readonly at: number }
  | { readonly op: "insert"; readonly at: number; readonly text: string }
  | { readonly op: "deleteRange"; readonly at: number; readonly len: number }
  | { readonly op: "duplicateRange"; readonly at: number; readonly len: number }
  | { readonly op: "replaceChar"; readonly at: number; readonly char: string }
  | { readonly op: "nest"; readonly depth: number; readonly kind: "array" | "object" }
  | { readonly op: "dupKey"; readonly value: string; readonly first: boolean }
  | { readonly op: "numberLiteral"; readonly at: number; readonly literal: string }
  | { readonly op: "pad"; readonly before: string; readonly after: string };

const GARBAGE = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.constantFrom(
    "\u0000",
    "\ufeff",
    "\\",
    '"',
    "}",
    "]",
    ",",
    ":",
    "{",
    "[",
    "\ud83d",
    "\r\n",
    "null",
    "NaN",
  ),
  fc.uint8Array({ maxLength: 8 }).map((b) => String.fromCharCode(...b)),
);

/** An arbitrary text mutation. */
export const textMutationArb: fc.Arbitrary<TextMutation> = fc.oneof(
  fc.record({ op: fc.constant("truncate" as const), at }),
  fc.record({ op: fc.constant("insert" as const), at, text: GARBAGE }),
  fc.record({ op: fc.constant("deleteRange" as const), at, len: fc.integer({ min: 1, max: 16 }) }),
  fc.record({ op: fc.constant("duplicateRange" as const), at, len: fc.integer({ min: 1, max: 32 }) }),
  fc.record({ op: fc.constant("replaceChar" as const), at, char: GARBAGE }),
  fc.record({
    op: fc.constant("nest" as const),
    depth: fc.oneof(
      { weight: 9, arbitrary: fc.integer({ min: 1, max: 64 }) },
      { weight: 1, arbitrary: fc.constantFrom(2_000, 20_000) },
    ),
    kind: fc.constantFrom<"array" | "object">("array", "object"),
  }),
  fc.record({
    op: fc.constant("dupKey" as const),
    value: fc.constantFrom('"x"', "1", "null", "{}", "[]", '"book_delta"', '"token_book"', "-1"),
    first: fc.boolean(),
  }),
  fc.record({
    op: fc.constant("numberLiteral" as const),
    at,
    literal: fc.constantFrom(
      "1e400",
      "-1e400",
      "1e-400",
      "-0",
      "100000000000000000000000",
      "0.1e1",
      "1E2",
      "01",
    ),
  }),
  fc.record({
    op: fc.constant("pad" as const),
    before: fc.constantFrom("", " ", "\ufeff", "\n\t", "\u00a0"),
    after: fc.constantFrom("", " ", "\n", "\u0000", "x"),
  }),
);

/** Applies a text mutation. */
export function mutateText(text: string, m: TextMutation): string {
  const n = Math.max(1, text.length);
  switch (m.op) {
    case "truncate":
      return text.slice(0, m.at % n);
    case "insert": {
      const i = m.at % (text.length + 1);
      return text.slice(0, i) + m.text + text.slice(i);
    }
    case "deleteRange": {
      const i = m.at % n;
      return text.slice(0, i) + text.slice(i + m.len);
    }
    case "duplicateRange": {
      const i = m.at % n;
      const part = text.slice(i, i + m.len);
      return text.slice(0, i) + part + part + text.slice(i + m.len);
    }
    case "replaceChar": {
      const i = m.at % n;
      return text.slice(0, i) + m.char + text.slice(i + 1);
    }
    case "nest":
      return m.kind === "array"
        ? `${"[".repeat(m.depth)}${text}${"]".repeat(m.depth)}`
        : `${'{"a":'.repeat(m.depth)}${text}${"}".repeat(m.depth)}`;
    case "dupKey": {
      const key = /^\{\s*("(?:[^"\\]|\\.)*")\s*:/.exec(text)?.[1];
      if (key === undefined) return text;
      return m.first
        ? `{${key}:${m.value},${text.slice(1)}`
        : `${text.replace(/\}\s*$/, "")},${key}:${m.value}}`;
    }
    case "numberLiteral": {
      const matches = [...text.matchAll(/(?<=[:[,]\s*)-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g)];
      if (matches.length === 0) return text;
      const hit = matches[m.at % matches.length] as RegExpMatchArray;
      const i = hit.index ?? 0;
      return text.slice(0, i) + m.literal + text.slice(i + hit[0].length);
    }
    case "pad":
      return m.before + text + m.after;
  }
}

/** Zero to three text mutations. */
export const textMutationsArb = fc.array(textMutationArb, { maxLength: 3 });

/** Applies text mutations in order. */
export function mutateTextAll(text: string, ms: readonly TextMutation[]): string {
  return ms.reduce((t, m) => mutateText(t, m), text);
}

/** JSON.parse that answers undefined instead of throwing (and says whether it parsed). */
export function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}
