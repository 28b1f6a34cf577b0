/**
 * The deepest nesting a configuration value may have. Real settings are at most about five levels
 * deep (engine.strategyByMarket → slug → params → bands → band); the limit keeps the recursive
 * readers downstream (the secret scan, convict's deep clone) far from the stack's end, so a
 * pathological file or MM_* value is a ConfigError rather than a RangeError.
 */
export const MAX_CONFIG_DEPTH = 32;

/**
 * True when `value` nests objects and arrays more than `max` levels deep (`{}` is one level).
 * Iterative, so it is safe on any depth JSON.parse can produce.
 * @example exceedsDepth({ a: { b: {} } }, 2) // true: three levels
 */
export function exceedsDepth(value: unknown, max: number = MAX_CONFIG_DEPTH): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [v, depth] = top;
    if (typeof v !== "object" || v === null) continue;
    if (depth >= max) return true;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * The nesting levels of JSON text (its deepest bracket), ignoring brackets inside strings; no
 * parsing, so it is safe on any input (an env value is checked before convict parses and
 * deep-clones it).
 * @example textDepth('{"a":[1,"]"]}') // 2
 */
export function textDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) deepest = Math.max(deepest, ++depth);
    else if (c === 93 || c === 125) depth--;
  }
  return deepest;
}
