import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { parseEventFrame } from "../../src/gateway/schema/events.js";
import { isRecord } from "../../src/gateway/schema/fields.js";
import type { GatewayKind } from "../../src/gateway/types.js";
import { framesOf, MARKET_FRAMES, USER_FRAMES } from "./frames/corpus.js";
import { definitelyInvalid, expectFaithful, RULES } from "./frames/oracle.js";
import {
  define,
  mutateAll,
  mutateTextAll,
  mutationsArb,
  nastyValue,
  textMutationsArb,
  tryParse,
} from "./mutate.js";
import { fuzz, printTally, timeoutFor } from "./runs.js";

/*
 * The event-frame validator of both gateways (src/gateway/schema) on valid frames of every type,
 * mutated in their tree and in their text, and on random objects: it never throws, refuses every
 * frame the spec's tables rule out (with one of its counter reasons), reads every frame it accepts
 * as exactly what was sent, and keeps accepting frames changed only in ways the spec allows.
 */

const started = performance.now();
afterAll(() => printTally("gateway-frames", started));

const REASONS = new Set([
  "unknown_type",
  "bad_envelope",
  "wrong_channel",
  "wrong_gateway",
  "bad_data",
  "bad_field",
  "id_mismatch",
  "book_not_object",
  "book_not_book_event",
  "book_bad_channel",
  "book_bad_token",
  "book_bad_data",
  "book_bad_seq",
  "book_bad_ts",
]);

const gatewayArb = fc.constantFrom<GatewayKind>("market", "user");
const seedArb = gatewayArb.chain((g) =>
  fc.tuple(fc.constant(g), fc.integer({ min: 0, max: framesOf(g).length - 1 })),
);

/** The connection hands a push to the validator only when it is an object with a string type. */
function check(value: unknown, gateway: GatewayKind): void {
  if (!isRecord(value) || typeof value.type !== "string") return;
  const r = parseEventFrame(value, gateway);
  const invalid = definitelyInvalid(value, gateway);
  if ("rejected" in r) {
    expect(REASONS.has(r.rejected), r.rejected).toBe(true);
    if (r.rejected === "bad_field") expect(typeof r.field).toBe("string");
    return;
  }
  expect(invalid, `accepted a frame that breaks the spec (${invalid})`).toBeUndefined();
  expectFaithful(value, r);
}

describe("fuzz: gateway event frames", () => {
  it("accepts every corpus frame on its own gateway and refuses it on the other", () => {
    for (const [frames, own, other] of [
      [MARKET_FRAMES, "market", "user"],
      [USER_FRAMES, "user", "market"],
    ] as const) {
      for (const f of frames) {
        const r = parseEventFrame(f, own);
        if ("rejected" in r) throw new Error(`${String(f.type)} refused: ${JSON.stringify(r)}`);
        expectFaithful(f, r);
        expect(parseEventFrame(f, other)).toMatchObject({ rejected: "wrong_gateway" });
      }
    }
    expect(new Set([...MARKET_FRAMES, ...USER_FRAMES].map((f) => f.type))).toEqual(
      new Set(Object.keys(RULES)),
    );
  });

  it(
    "tree-mutated frames: refused when the spec rules them out, faithful when accepted",
    () => {
      fuzz(
        "gateway frames: tree mutations",
        fc.property(seedArb, mutationsArb, ([g, i], ms) => {
          check(mutateAll(framesOf(g)[i], ms), g);
        }),
      );
    },
    timeoutFor(),
  );

  it(
    "text-mutated frames (truncated, garbage, deep, duplicate keys, 1e400) never throw and are judged alike",
    () => {
      fuzz(
        "gateway frames: text mutations",
        fc.property(seedArb, mutationsArb, textMutationsArb, ([g, i], ms, ts) => {
          const text = mutateTextAll(JSON.stringify(mutateAll(framesOf(g)[i], ms.slice(0, 1))) ?? "", ts);
          const parsed = tryParse(text);
          if (parsed.ok) check(parsed.value, g);
        }),
        0.5,
      );
    },
    timeoutFor(0.5),
  );

  it(
    "random objects with a spec type and random fields",
    () => {
      const fieldsArb = fc.dictionary(
        fc.constantFrom(
          ...new Set(
            Object.values(RULES).flatMap((r) => [
              ...Object.keys(r.required),
              ...Object.keys(r.optional ?? {}),
              ...Object.keys(r.informational ?? {}),
            ]),
          ),
          "bids",
          "asks",
          "changes",
          "seq",
          "prevSeq",
        ),
        fc.oneof(nastyValue, fc.string(), fc.nat(), fc.constant("0.5")),
        { maxKeys: 14 },
      );
      fuzz(
        "gateway frames: random objects",
        fc.property(
          gatewayArb,
          fc.constantFrom(...Object.keys(RULES), "connected", "mystery"),
          fc.oneof(fc.constantFrom<unknown>(1, "s", undefined, null, true), fc.nat()),
          fc.constantFrom<unknown>(...new Set(Object.values(RULES).map((r) => r.channel)), undefined, 5),
          fc.oneof(fc.constant(undefined), fc.string(), fc.constant("platform_status")),
          fieldsArb,
          (g, type, sid, channel, id, data) => {
            check({ type, sid, channel, id, data }, g);
          },
        ),
      );
    },
    timeoutFor(),
  );

  it(
    "changes the spec allows keep a frame valid: extra fields, other values of the right kind, optional fields absent",
    () => {
      const benignArb = fc.record({
        extra: fc.dictionary(
          fc.string({ maxLength: 6 }).map((k) => `x_${k}`),
          fc.jsonValue({ maxDepth: 2 }),
          {
            maxKeys: 3,
          },
        ),
        envelopeExtra: fc.dictionary(
          fc.string({ maxLength: 6 }).map((k) => `x_${k}`),
          fc.jsonValue({ maxDepth: 2 }),
          {
            maxKeys: 2,
          },
        ),
        dec: fc
          .tuple(fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.option(fc.bigInt({ min: 0n, max: 10n ** 20n })))
          .map(([i, f]) => (f === null ? `${i}` : `${i}.${f}`)),
        int: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
        num: fc.double({ noNaN: true, noDefaultInfinity: true }),
        str: fc.string({ minLength: 1, maxLength: 30 }),
        sid: fc.oneof(fc.integer(), fc.string()),
        dropOptional: fc.boolean(),
        nullOptional: fc.boolean(),
      });
      fuzz(
        "gateway frames: allowed changes stay valid",
        fc.property(seedArb, benignArb, ([g, i], b) => {
          const base = framesOf(g)[i] as Record<string, unknown>;
          const type = base.type as string;
          const rule = RULES[type] as (typeof RULES)[string];
          const data: Record<string, unknown> = { ...(base.data as Record<string, unknown>) };
          for (const [k, v] of Object.entries(b.extra)) define(data, k, v);
          const kinds = type.startsWith("book_")
            ? {}
            : { ...rule.required, ...rule.optional, ...rule.informational };
          for (const [field, kind] of Object.entries(kinds)) {
            if (field === rule.key || !(field in data)) continue;
            if (kind === "dec") data[field] = b.dec;
            else if (kind === "int") data[field] = b.int;
            else if (kind === "num") data[field] = b.num;
            else if (kind === "str") data[field] = b.str;
          }
          for (const field of Object.keys({ ...rule.optional, ...rule.informational })) {
            if (b.dropOptional) delete data[field];
            else if (b.nullOptional) data[field] = null;
          }
          const frame: Record<string, unknown> = { ...base, sid: b.sid, data };
          for (const [k, v] of Object.entries(b.envelopeExtra)) define(frame, k, v);
          const r = parseEventFrame(frame, g);
          if ("rejected" in r) {
            throw new Error(`refused ${JSON.stringify(r)} for ${JSON.stringify(frame).slice(0, 400)}`);
          }
          expectFaithful(frame, r);
          // Well-formed informational fields are kept, not dropped with the malformed ones.
          const event = r.event as unknown as Record<string, unknown>;
          for (const field of Object.keys(rule.informational ?? {})) {
            if (data[field] !== undefined && data[field] !== null) expect(event[field], field).toBeDefined();
          }
        }),
        0.5,
      );
    },
    timeoutFor(0.5),
  );
});
