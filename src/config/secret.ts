/** What every secret prints as, whichever way it is stringified, serialised or inspected. */
export const REDACTED = "[REDACTED]";

const INSPECT = Symbol.for("nodejs.util.inspect.custom");

/**
 * A secret value that cannot leak by accident: `String(s)`, `JSON.stringify(s)`, template literals,
 * `console.log(s)` and pino all print "[REDACTED]". The raw value is only available through an
 * explicit, greppable `.reveal()`. The value lives in a private field, so spreading, structuredClone
 * and Object.keys see nothing either.
 * @example
 * const key = new Secret(raw);
 * `${key}` // "[REDACTED]"
 * headers["X-Api-Key"] = key.reveal();
 */
export class Secret {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  /** The raw secret. Call it only where the value is sent (a header, a signer), never near a logger. */
  reveal(): string {
    return this.#value;
  }

  toString(): string {
    return REDACTED;
  }

  toJSON(): string {
    return REDACTED;
  }

  [INSPECT](): string {
    return REDACTED;
  }
}
