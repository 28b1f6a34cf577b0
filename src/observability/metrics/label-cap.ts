/** The label value every value beyond a cap is folded into. */
export const OTHER = "other";

/**
 * Bounds the distinct values of one label: the first `max` distinct values keep their own series,
 * every later one is reported as {@link OTHER}. First come, first kept, so the set is stable for the
 * life of the process (the markets registered at start are the ones that keep their names).
 * @example
 * const cap = new LabelCap(2);
 * cap.of("a"); cap.of("b"); cap.of("c") // "other"
 */
export class LabelCap {
  readonly max: number;
  readonly #kept = new Set<string>();

  constructor(max: number) {
    if (!Number.isInteger(max) || max < 0)
      throw new RangeError(`label cap must be an integer >= 0, got ${max}`);
    this.max = max;
  }

  /** The label value to use for `value`. */
  of(value: string): string {
    if (this.#kept.has(value)) return value;
    if (this.#kept.size >= this.max || value === OTHER) return OTHER;
    this.#kept.add(value);
    return value;
  }

  /** Values that keep their own series, in first-seen order. */
  kept(): string[] {
    return [...this.#kept];
  }
}

/**
 * A closed label set: values in `known` pass, anything else becomes {@link OTHER}. For labels whose
 * values come from the outside (error codes, frame types) but are meant to be a fixed vocabulary.
 */
export function closedSet(known: Iterable<string>): (value: string) => string {
  const set = new Set(known);
  return (value) => (set.has(value) ? value : OTHER);
}
