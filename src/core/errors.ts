/**
 * The one base error of mm. Every error the project throws carries a stable machine-readable `code`
 * (branch on it, never on the message), a short human message and structured `details`.
 * Modelled on viem's BaseError: the message stays short, details stay structured.
 */
export class MmError extends Error {
  /** Stable, documented code; safe to branch on and to use as a metric label. */
  readonly code: string;
  /** Structured context; never contains secrets. */
  readonly details: Readonly<Record<string, unknown>>;

  /**
   * @example
   * throw new MmError("off_tick", "price 0.123 is not a multiple of tick 0.01", { price: "0.123", tick: "0.01" });
   */
  constructor(
    code: string,
    message: string,
    details: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.details = details;
  }

  /** A JSON-safe view for logs (pino serialises this via its `err` serializer). */
  toJSON(): Record<string, unknown> {
    return { name: this.name, code: this.code, message: this.message, details: this.details };
  }
}

/** Raised by core validation (decimals, ticks, amounts); `code` says which rule failed. */
export class ValidationError extends MmError {}

/** True when `err` is an MmError with the given code. */
export function hasCode(err: unknown, code: string): boolean {
  return err instanceof MmError && err.code === code;
}
