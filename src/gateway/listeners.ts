/**
 * A set of listeners of one event. Listeners run synchronously in registration order; one that
 * throws is isolated (reported through `onError`) so the others still run and the socket lives.
 */
export class Listeners<A extends unknown[]> {
  readonly #fns = new Set<(...args: A) => void>();
  readonly #onError: (err: unknown) => void;

  constructor(onError: (err: unknown) => void) {
    this.#onError = onError;
  }

  /** Adds a listener; returns its removal. */
  add(fn: (...args: A) => void): () => void {
    this.#fns.add(fn);
    return () => this.#fns.delete(fn);
  }

  get size(): number {
    return this.#fns.size;
  }

  emit(...args: A): void {
    for (const fn of this.#fns) {
      try {
        fn(...args);
      } catch (err) {
        this.#onError(err);
      }
    }
  }
}
