import { MmError } from "../../core/errors.js";

/** Which of the spec's error envelopes a problem is sent in. */
export type Envelope = "bare" | "nested" | "placement";

/**
 * An HTTP error answer from a mock handler: status, spec code, message, details and envelope.
 * Handlers throw it; the server renders it. Bare `{code, message, details}` is the general shape;
 * nested `{status, error: {code, message, trace_id, details}}` is for 429, upstream (5xx) and vault
 * signature errors; the placement shape for POST /api/orders/place.
 */
export class HttpProblem extends MmError {
  readonly status: number;
  readonly envelope: Envelope;

  constructor(
    status: number,
    code: string,
    message: string,
    details: Record<string, unknown> = {},
    envelope: Envelope = "bare",
  ) {
    super(code, message, details);
    this.status = status;
    this.envelope = envelope;
  }
}

/** Renders a problem's body in its envelope. */
export function problemBody(p: HttpProblem, traceId: string): Record<string, unknown> {
  const details = Object.keys(p.details).length > 0 ? { details: p.details } : {};
  switch (p.envelope) {
    case "nested":
      return { status: p.status, error: { code: p.code, message: p.message, trace_id: traceId, ...details } };
    case "placement":
      return {
        orderId: "",
        status: "REJECTED",
        filledQty: "0",
        remainingQty: "0",
        trades: [],
        code: p.code,
        message: p.message,
        ...details,
      };
    default:
      return { code: p.code, message: p.message, ...details };
  }
}
