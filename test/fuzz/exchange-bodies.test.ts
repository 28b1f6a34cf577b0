import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { ValidationError } from "../../src/core/errors.js";
import { errorFromResponse } from "../../src/exchange/envelopes.js";
import { classifyHttpFailure, ExchangeError } from "../../src/exchange/exchange-error.js";
import type { TransportResponse } from "../../src/exchange/transport.js";
import { breaks, recordInvalid, TARGETS } from "./exchange/records.js";
import { mutateAll, mutateTextAll, mutationsArb, nastyValue, textMutationsArb, tryParse } from "./mutate.js";
import { fuzz, printTally, timeoutFor } from "./runs.js";

/*
 * The HTTP client's body readers without a socket: every record, list and wrapper reader of
 * src/exchange on valid bodies mutated in tree and text, and the envelope reader on any status
 * with valid, mutated and garbage error bodies. Readers return the body faithfully or throw
 * ValidationError `malformed_response` naming the offending field (the caller wraps it into an
 * ExchangeError); the envelope reader never throws, finds every failure, and gives each a
 * non-empty code and the outcome the status implies.
 */

const started = performance.now();
afterAll(() => printTally("exchange-bodies", started));

const PATH = "GET /api/fuzz";
const targetArb = fc.integer({ min: 0, max: TARGETS.length - 1 });

/** The body after tree mutations and, sometimes, text mutations through JSON as the transport parses it. */
const bodyArb = fc
  .tuple(targetArb, mutationsArb, fc.option(textMutationsArb, { freq: 4 }))
  .map(([i, ms, ts]) => {
    const value = mutateAll((TARGETS[i] as (typeof TARGETS)[number]).seed, ms);
    if (ts === null) return { i, body: value };
    const parsed = tryParse(mutateTextAll(JSON.stringify(value) ?? "", ts));
    return { i, body: parsed.ok ? parsed.value : mutateTextAll(JSON.stringify(value) ?? "", ts) };
  });

function expectFaithful(
  name: string,
  rules: Record<string, unknown>,
  passThrough: boolean,
  input: Record<string, unknown>,
  out: Record<string, unknown>,
) {
  for (const [k, v] of Object.entries(input)) {
    const rule = Object.hasOwn(rules, k) ? rules[k] : undefined;
    if (rule === undefined && !passThrough) continue;
    if (k === "clientOrderId" && name === "order" && (v === "" || v === null)) {
      expect(Object.hasOwn(out, k)).toBe(false);
    } else if (rule === "strOrNull" || rule === "decOrNull" || rule === "natOrNull") {
      expect(out[k]).toStrictEqual(v ?? null);
    } else if (rule === "optStr" || rule === "optDec") {
      // Absent either way: a null may read as undefined or pass through as sent.
      if (v === null) expect([null, undefined]).toContain(out[k]);
      else expect(out[k]).toStrictEqual(v);
    } else if (rule === undefined || v !== undefined) {
      expect(out[k], k).toBe(v);
    }
  }
}

describe("fuzz: HTTP response bodies", () => {
  it("every reader accepts its valid body", () => {
    for (const t of TARGETS) expect(() => t.parse(structuredClone(t.seed), PATH), t.name).not.toThrow();
  });

  it(
    "mutated bodies: returned faithfully, or refused with ValidationError malformed_response naming the field",
    () => {
      fuzz(
        "exchange bodies: mutated records, lists and wrappers",
        fc.property(bodyArb, ({ i, body }) => {
          const t = TARGETS[i] as (typeof TARGETS)[number];
          const invalid = t.rules === undefined ? undefined : recordInvalid(t, body);
          let out: unknown;
          try {
            out = t.parse(body, PATH);
          } catch (err) {
            expect(err).toBeInstanceOf(ValidationError);
            const e = err as ValidationError;
            expect(e.code).toBe("malformed_response");
            const field = e.details.field as string;
            expect(field.startsWith(PATH)).toBe(true);
            expect(e.message.startsWith(`${field}: expected `)).toBe(true);
            return;
          }
          expect(invalid, `${t.name}: accepted a body breaking ${invalid}`).toBeUndefined();
          if (t.rules !== undefined) {
            expectFaithful(
              t.name,
              t.rules,
              t.passThrough === true,
              body as Record<string, unknown>,
              out as Record<string, unknown>,
            );
          }
        }),
        0.5,
      );
    },
    timeoutFor(0.5),
  );

  it(
    "a record with one checked field replaced by a nasty value is refused exactly when the value breaks the rule",
    () => {
      const records = TARGETS.filter((t) => t.rules !== undefined);
      fuzz(
        "exchange bodies: one checked field replaced",
        fc.property(fc.nat(), fc.nat(), fc.oneof(nastyValue, fc.string(), fc.integer()), (ti, fi, value) => {
          const t = records[ti % records.length] as (typeof records)[number];
          const fields = Object.keys(t.rules ?? {});
          const field = fields[fi % fields.length] as string;
          const body = { ...(t.seed as Record<string, unknown>), [field]: value };
          let refused: ValidationError | undefined;
          try {
            t.parse(body, PATH);
          } catch (err) {
            expect(err).toBeInstanceOf(ValidationError);
            refused = err as ValidationError;
          }
          const rule = t.rules?.[field];
          if (rule !== undefined && breaks(rule, value)) {
            const named = refused?.details.field;
            expect(
              named === `${PATH}.${field}` || String(named).startsWith(`${PATH}.${field}[`),
              `${t.name}.${field} = ${JSON.stringify(value)?.slice(0, 60)}: ${String(named)}`,
            ).toBe(true);
          } else if (refused !== undefined) {
            // The only cross-field rule: a placement that is not REJECTED needs an orderId.
            expect(`${t.name}.${field}`).toMatch(/^placement\.(status|orderId)$/);
          }
        }),
      );
    },
    timeoutFor(),
  );

  const ENVELOPE_SEEDS: unknown[] = [
    {
      orderId: "",
      status: "REJECTED",
      filledQty: "0",
      remainingQty: "0",
      trades: [],
      code: "insufficient_funds",
      message: "no",
    },
    {
      status: 429,
      error: { code: "rate_limited", message: "slow down", trace_id: "tr-1", details: { retryAfter: 1 } },
    },
    {
      code: "api_key_scope_missing",
      message: "scope",
      details: { requiredScope: "orders:write" },
      have: ["orders:read"],
    },
    { code: "not_cancellable", message: "terminal" },
    { orderId: "o-1", status: "OPEN", filledQty: "0", remainingQty: "1", trades: [] },
    { id: "m-1", code: "some-field-of-a-record", slug: "x" },
  ];
  const responseArb = fc.record({
    status: fc.oneof(
      fc.constantFrom(200, 201, 204, 400, 401, 403, 404, 408, 409, 422, 429, 500, 501, 502, 503, 504),
      fc.integer({ min: 100, max: 599 }),
    ),
    placement: fc.boolean(),
    allowText: fc.boolean(),
    text: fc.oneof(
      fc
        .tuple(fc.constantFrom(...ENVELOPE_SEEDS), fc.option(mutationsArb), textMutationsArb)
        .map(([seed, ms, ts]) => mutateTextAll(JSON.stringify(mutateAll(seed, ms ?? [])) ?? "", ts)),
      fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
      fc.string({ maxLength: 40 }),
      fc.constantFrom("", " ", "<html>502 Bad Gateway</html>", "null", "[]", "{}", '"ok"'),
    ),
  });

  it(
    "error envelopes: any status and body gives undefined (success) or one ExchangeError with a code and the status's outcome",
    () => {
      fuzz(
        "exchange bodies: error envelopes",
        fc.property(responseArb, ({ status, placement, allowText, text }) => {
          const parsed = text.trim() === "" ? ({ ok: false } as const) : tryParse(text);
          const res: TransportResponse = {
            endpoint: placement ? "POST /api/orders/place" : PATH,
            status,
            headers: {},
            text,
            json: parsed.ok ? parsed.value : undefined,
            isJson: parsed.ok,
            requestId: "req-1",
            traceId: undefined,
            apiVersion: undefined,
            serverTimeMs: undefined,
            rateLimit: undefined,
            retryAfterMs: undefined,
            sentAt: 0,
            receivedAt: 1,
            durationMs: 1,
          };
          const err = errorFromResponse(res, { placement, allowText });
          const ok = status >= 200 && status < 300;
          if (!ok) expect(err).toBeInstanceOf(ExchangeError);
          if (ok && !parsed.ok && !allowText) expect(err?.code).toBe("malformed_response");
          const body = parsed.ok ? parsed.value : undefined;
          const isObj = typeof body === "object" && body !== null && !Array.isArray(body);
          if (ok && placement && isObj && (body as Record<string, unknown>).status === "REJECTED") {
            expect(err).toBeInstanceOf(ExchangeError);
          }
          if (ok && isObj && !placement) {
            const e = (body as Record<string, unknown>).error;
            if (
              typeof e === "object" &&
              e !== null &&
              !Array.isArray(e) &&
              typeof (e as Record<string, unknown>).code === "string"
            ) {
              expect(err).toBeInstanceOf(ExchangeError);
            }
          }
          if (err === undefined) return;
          expect(typeof err.code === "string" && err.code !== "", `code ${JSON.stringify(err.code)}`).toBe(
            true,
          );
          expect(err.httpStatus).toBe(status);
          expect(err.requestId).toBe("req-1");
          if (err.code !== "malformed_response")
            expect(err.outcome).toBe(classifyHttpFailure(status, err.code));
          else expect(err.outcome).toBe("ambiguous");
          expect(typeof err.message === "string" && err.message !== "").toBe(true);
        }),
        0.5,
      );
    },
    timeoutFor(0.5),
  );
});
