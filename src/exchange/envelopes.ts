import { classifyHttpFailure, ExchangeError, type ExchangeOutcome } from "./exchange-error.js";
import type { TransportResponse } from "./transport.js";

/** How to read a response body: the placement endpoint has its own envelope (spec: branch on the path). */
export interface EnvelopeContext {
  /** True for POST /api/orders/place: read body.status and body.code first. */
  placement: boolean;
  /** True when a non-JSON 2xx body is acceptable (health probes). */
  allowText?: boolean;
}

/** The fields an envelope yields before they become an ExchangeError. */
export interface ParsedEnvelope {
  shape: "placement" | "nested" | "bare";
  code: string | undefined;
  message: string | undefined;
  traceId: string | undefined;
  details: Record<string, unknown>;
}

const BARE_KEYS = new Set(["code", "message", "details", "status", "trace_id", "traceId", "error"]);

/**
 * The failure a response carries, or undefined when it is a success. Reads the three envelopes of the
 * spec into one ExchangeError:
 * 1. placement result: `{orderId: "", status: "REJECTED", code, message}` (HTTP 201 even on reject);
 * 2. nested: `{status, error: {code, message, trace_id, details}}` (trace id also from X-Trace-Id);
 * 3. bare: `{code, message, details}`.
 * Placement bodies are read as (1) first, every other path as (2) first; each falls back to the other
 * shapes. An error status without a readable code becomes `http_error`; a 2xx that is not JSON becomes
 * `malformed_response`.
 * @example const err = errorFromResponse(res, { placement: false }); if (err) throw err;
 */
export function errorFromResponse(res: TransportResponse, ctx: EnvelopeContext): ExchangeError | undefined {
  const ok = res.status >= 200 && res.status < 300;
  if (ok) {
    if (!res.isJson) {
      if (ctx.allowText === true) return undefined;
      return malformed(res, `expected a JSON body, got ${describeText(res.text)}`);
    }
    const reject = readBusinessReject(res.json, ctx.placement);
    if (reject === undefined) return undefined;
    return errorFromEnvelope(res, reject, ctx.placement ? "placement_rejected" : "http_error");
  }
  const parsed = res.isJson ? readEnvelope(res.json, ctx.placement) : undefined;
  if (parsed?.code !== undefined) return errorFromEnvelope(res, parsed, "http_error");
  return new ExchangeError({
    code: "http_error",
    message: parsed?.message ?? `HTTP ${res.status} without an error code`,
    outcome: classifyHttpFailure(res.status, "http_error"),
    endpoint: res.endpoint,
    path: res.path,
    httpStatus: res.status,
    requestId: res.requestId,
    traceId: parsed?.traceId ?? res.traceId,
    retryAfterMs: res.retryAfterMs,
    details: { ...(parsed?.details ?? {}), body: describeText(res.text) },
  });
}

/**
 * Reads any of the three envelopes from an error body; undefined when the body is not an object.
 * `preferPlacement` decides which shape wins when a body could be read several ways.
 */
export function readEnvelope(body: unknown, preferPlacement: boolean): ParsedEnvelope | undefined {
  if (!isObject(body)) return undefined;
  const order = preferPlacement ? [placement, nested, bare] : [nested, bare, placement];
  for (const read of order) {
    const parsed = read(body);
    if (parsed !== undefined) return parsed;
  }
  // An object with no recognisable code: keep its message and other fields for the fallback error.
  const message = str(body.message);
  return { shape: "bare", code: undefined, message, traceId: str(body.trace_id), details: extras(body) };
}

/**
 * A business reject inside a 200/201 body (spec: "always read the body"). Placement: `status` REJECTED.
 * Elsewhere: a nested `error` object, or a body that is nothing but a bare envelope (only code, message,
 * details, status, trace fields), so a record that merely has a `code` field is not mistaken for one.
 */
export function readBusinessReject(body: unknown, isPlacement: boolean): ParsedEnvelope | undefined {
  if (!isObject(body)) return undefined;
  if (isPlacement) return body.status === "REJECTED" ? placementFields(body) : undefined;
  const n = nested(body);
  if (n !== undefined) return n;
  if (typeof body.code === "string" && Object.keys(body).every((k) => BARE_KEYS.has(k))) return bare(body);
  return undefined;
}

function placement(body: Record<string, unknown>): ParsedEnvelope | undefined {
  if (body.status !== "REJECTED" || typeof body.code !== "string") return undefined;
  return placementFields(body);
}

function placementFields(body: Record<string, unknown>): ParsedEnvelope {
  const { code, message, details, trace_id, status, orderId, filledQty, remainingQty, trades, ...rest } =
    body;
  return {
    shape: "placement",
    code: str(code),
    message: str(message),
    traceId: str(trace_id),
    details: { ...rest, ...(isObject(details) ? details : {}) },
  };
}

function nested(body: Record<string, unknown>): ParsedEnvelope | undefined {
  const error = body.error;
  if (!isObject(error) || typeof error.code !== "string") return undefined;
  const { code, message, trace_id, details, ...rest } = error;
  return {
    shape: "nested",
    code: str(code),
    message: str(message),
    traceId: str(trace_id),
    details: { ...extras(body, ["error", "status"]), ...rest, ...(isObject(details) ? details : {}) },
  };
}

function bare(body: Record<string, unknown>): ParsedEnvelope | undefined {
  // An empty code names nothing: like the other shapes, it falls back to http_error.
  if (typeof body.code !== "string" || body.code === "") return undefined;
  const details = body.details;
  // Fields beside the envelope (api_key_scope_missing puts requiredScope and have[] there) are kept.
  return {
    shape: "bare",
    code: body.code,
    message: str(body.message),
    traceId: str(body.trace_id),
    details: { ...extras(body), ...(isObject(details) ? details : {}) },
  };
}

/** Turns a parsed envelope into the ExchangeError it stands for, classified by status and code. */
export function errorFromEnvelope(
  res: TransportResponse,
  parsed: ParsedEnvelope,
  fallbackCode: string,
): ExchangeError {
  const code = parsed.code ?? fallbackCode;
  const outcome: ExchangeOutcome = classifyHttpFailure(res.status, code);
  return new ExchangeError({
    code,
    message: parsed.message ?? `${res.endpoint} failed with ${code}`,
    outcome,
    endpoint: res.endpoint,
    path: res.path,
    httpStatus: res.status,
    requestId: res.requestId,
    traceId: parsed.traceId ?? res.traceId,
    retryAfterMs: res.retryAfterMs,
    details: parsed.details,
  });
}

/**
 * A 2xx whose body cannot be read. For a write the server did act on something: ambiguous. Reads are
 * classified the same way for uniformity; the retry policy does not retry this code (a body that does
 * not fit will not fit next time either).
 */
export function malformed(
  res: TransportResponse,
  message: string,
  details: Record<string, unknown> = {},
  cause?: unknown,
): ExchangeError {
  return new ExchangeError({
    code: "malformed_response",
    message: message.startsWith(res.endpoint) ? message : `${res.endpoint}: ${message}`,
    outcome: "ambiguous",
    endpoint: res.endpoint,
    path: res.path,
    httpStatus: res.status,
    requestId: res.requestId,
    traceId: res.traceId,
    details,
    cause,
  });
}

function extras(body: Record<string, unknown>, skip: readonly string[] = []): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) {
    if (k === "code" || k === "message" || k === "details" || k === "trace_id" || skip.includes(k)) continue;
    out[k] = v;
  }
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function str(v: unknown): string | undefined {
  return typeof v === "string" && v !== "" ? v : undefined;
}

/**
 * A body as quoted in an error: JSON-quoted, cut at 120 characters.
 * @example describeText("<html>…") // "\"<html>…\""
 */
export function describeText(text: string): string {
  if (text === "") return "an empty body";
  return JSON.stringify(text.length > 120 ? `${text.slice(0, 120)}…` : text);
}
