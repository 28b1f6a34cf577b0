import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import type { BookCounters } from "../../src/book/book-state.js";
import type { BookEvent } from "../../src/book/events.js";
import { parsePriceMicro } from "../../src/book/micro.js";
import { BookTracker } from "../../src/book/tracker.js";
import { Dec } from "../../src/core/decimal.js";
import { SimClock } from "../../src/core/sim-clock.js";
import { parseEventFrame } from "../../src/gateway/schema/events.js";
import { ReferenceBook } from "../unit/book/reference-book.js";
import { define, nastyValue, tryParse } from "./mutate.js";
import { fuzz, printTally, timeoutFor } from "./runs.js";

/*
 * A BookTracker fed the way the live feed feeds it (JSON text → JSON.parse → the gateway's
 * event validator → tracker.onEvent), from a server whose book stream is valid, through a channel
 * that corrupts some frames and some snapshot answers beyond doubt (bad prices and sizes,
 * entries that are not objects, lists that are not arrays, non-integer seqs, wrong tokens, types
 * and channels, truncated or garbage text). After every frame:
 * - it was counted exactly once: by the gateway as malformed, or by one tracker counter;
 * - a frame the tracker refused as malformed left the book as it was, and the book resyncing;
 * - whenever the book says `synced`, it equals the server's book at the tracker's seq;
 * and once the corruption stops, the retries (on the SimClock) bring the final book back.
 */

const started = performance.now();
afterAll(() => printTally("book-tracker", started));

const TOKEN = "424242";
const SIZES = ["0", "0", "1", "2.5", "10.25", "123456789.000001", "0.000001"];
const BAD_PRICES: unknown[] = [
  "0",
  "0.0",
  "-0.5",
  "1.5",
  "1.0000001",
  "0.0000001",
  "1e-2",
  " 0.5",
  "0.5 ",
  "",
  ".5",
  "5.",
  "0x1",
  "NaN",
  "0.4٥",
  0.5,
  null,
  true,
  [],
  {},
];
const BAD_SIZES: unknown[] = [
  "-1",
  "1e3",
  "1.0000001",
  "",
  " 1",
  "abc",
  "1.",
  ".5",
  "NaN",
  "Infinity",
  10,
  null,
  false,
  {},
];
const BAD_SIDES: unknown[] = ["BUYY", "", "Buy", "bids", "0", null, 1, [], {}];
const BAD_SEQS: unknown[] = ["12", -1, 1.5, 1e300, 2 ** 53, true, {}, []];

type Corruption =
  | {
      readonly k: "entryField";
      readonly list: number;
      readonly at: number;
      readonly field: number;
      readonly v: number;
    }
  | { readonly k: "deleteField"; readonly list: number; readonly at: number; readonly field: number }
  | { readonly k: "entry"; readonly list: number; readonly at: number; readonly value: unknown }
  | { readonly k: "list"; readonly list: number; readonly value: unknown }
  | { readonly k: "seq"; readonly field: "seq" | "prevSeq"; readonly v: number }
  | { readonly k: "envelope"; readonly which: number }
  | { readonly k: "text"; readonly at: number; readonly garbage: boolean };

const corruptionArb: fc.Arbitrary<Corruption> = fc.oneof(
  fc.record({
    k: fc.constant("entryField" as const),
    list: fc.nat(1),
    at: fc.nat(),
    field: fc.nat(2),
    v: fc.nat(),
  }),
  fc.record({ k: fc.constant("deleteField" as const), list: fc.nat(1), at: fc.nat(), field: fc.nat(2) }),
  fc.record({
    k: fc.constant("entry" as const),
    list: fc.nat(1),
    at: fc.nat(),
    value: fc.oneof(fc.constantFrom<unknown>(null, 5, "x", [], true), nastyValue),
  }),
  fc.record({
    k: fc.constant("list" as const),
    list: fc.nat(1),
    value: fc.oneof(
      fc.constantFrom<unknown>(null, {}, "[]", 0, false),
      nastyValue.filter((v) => !Array.isArray(v)),
    ),
  }),
  fc.record({
    k: fc.constant("seq" as const),
    field: fc.constantFrom("seq" as const, "prevSeq" as const),
    v: fc.nat(),
  }),
  fc.record({ k: fc.constant("envelope" as const), which: fc.nat(7) }),
  fc.record({ k: fc.constant("text" as const), at: fc.nat(), garbage: fc.boolean() }),
);

/** An entry the spec's level/change shape rules out for certain (checked with decimal.js, not src/book). */
function entryInvalid(e: unknown, withSide: boolean): boolean {
  if (typeof e !== "object" || e === null) return true;
  const { price, size, side } = e as Record<string, unknown>;
  const dec = (v: unknown) => typeof v === "string" && /^\d+(\.\d+)?$/.test(v);
  if (!dec(price) || !dec(size)) return true;
  const p = new Dec(price as string);
  if (p.lte(0) || p.gt(1) || !p.mul(1e6).isInteger() || !new Dec(size as string).mul(1e6).isInteger())
    return true;
  return withSide && !["buy", "BUY", "bid", "BID", "sell", "SELL", "ask", "ASK"].includes(side as string);
}

/** The frame's text after a corruption that makes it unusable beyond doubt (or unchanged if it cannot). */
function corrupt(frame: Record<string, unknown>, c: Corruption): string {
  const f = structuredClone(frame);
  const d = f.data as Record<string, unknown>;
  const lists = "changes" in d ? ["changes"] : ["bids", "asks"];
  const name = lists[
    c.k === "entryField" || c.k === "deleteField" || c.k === "entry" || c.k === "list"
      ? c.list % lists.length
      : 0
  ] as string;
  const list = d[name] as Record<string, unknown>[];
  const withSide = name === "changes";
  const fields = withSide ? ["price", "size", "side"] : ["price", "size"];
  const target = (at: number) => {
    if (list.length === 0) list.push({ side: "buy", price: "0.45", size: "1" });
    return list[at % list.length] as Record<string, unknown>;
  };
  switch (c.k) {
    case "entryField": {
      const field = fields[c.field % fields.length] as string;
      const bad = field === "price" ? BAD_PRICES : field === "size" ? BAD_SIZES : BAD_SIDES;
      target(c.at)[field] = bad[c.v % bad.length];
      break;
    }
    case "deleteField":
      delete target(c.at)[fields[c.field % fields.length] as string];
      break;
    case "entry":
      target(c.at);
      if (!entryInvalid(c.value, withSide)) return JSON.stringify(frame);
      list[c.at % list.length] = c.value as Record<string, unknown>;
      break;
    case "list":
      d[name] = c.value;
      break;
    case "seq":
      if (!(c.field in d)) return JSON.stringify(frame);
      d[c.field] = BAD_SEQS[c.v % BAD_SEQS.length];
      break;
    case "envelope":
      [
        () => define(d, "tokenId", "12a"),
        () => define(f, "id", "999"),
        () => define(f, "type", "book_deltas"),
        () => define(f, "channel", "token_trade_matches"),
        () => define(f, "data", [d]),
        () => define(d, "tsMs", "1767225600000"),
        () => define(f, "type", 7),
        () => define(f, "sid", null),
      ][c.which % 8]?.();
      break;
    case "text": {
      const text = JSON.stringify(f);
      return c.garbage ? `\u0000${text.slice(0, c.at % text.length)}` : text.slice(0, c.at % text.length);
    }
  }
  return JSON.stringify(f);
}

const changeArb = fc.record({
  bid: fc.boolean(),
  tick: fc.integer({ min: 0, max: 9 }),
  size: fc.constantFrom(...SIZES),
});
type ChangeSpec = { bid: boolean; tick: number; size: string };
const toChange = (c: ChangeSpec) => ({
  side: c.bid ? "buy" : "sell",
  price: c.bid ? `0.4${c.tick}` : `0.${51 + c.tick}`,
  size: c.size,
});
const corruptOften = fc.option(corruptionArb, { freq: 3, nil: undefined });
const frameArb = fc.record({
  update: fc.integer({ min: 0, max: 9 }).map((x) => x === 0),
  changes: fc.array(changeArb, { maxLength: 4 }),
  corrupt: corruptOften,
});
const answerArb = fc.record({
  delay: fc.integer({ min: 0, max: 3 }),
  failed: fc.integer({ min: 0, max: 9 }).map((x) => x === 0),
  corrupt: corruptOften,
});

const FRAME_COUNTERS: (keyof BookCounters)[] = [
  "snapshots",
  "updates",
  "deltas",
  "droppedMissingSeq",
  "droppedStale",
  "droppedWhileResyncing",
  "gaps",
  "malformed",
  "snapshotFailures",
];
const counted = (c: Readonly<BookCounters>) => FRAME_COUNTERS.reduce((n, k) => n + c[k], 0);

const envelope = (type: string, data: Record<string, unknown>) => ({
  type,
  sid: 3,
  channel: "token_book",
  id: TOKEN,
  data,
});

describe("fuzz: BookTracker behind the gateway validator", () => {
  it(
    "corrupted frames and answers are counted, never applied; synced books equal the server's; it recovers",
    () => {
      fuzz(
        "book tracker: corrupted streams",
        fc.property(
          fc.array(changeArb, { maxLength: 10 }),
          fc.integer({ min: 0, max: 1_000 }),
          fc.array(frameArb, { minLength: 1, maxLength: 30 }),
          fc.array(answerArb, { minLength: 1, maxLength: 6 }),
          (initial, seq0, specs, answers) => {
            const server = new ReferenceBook();
            server.applyAll(initial.map(toChange));
            const states = new Map<number, string>([[seq0, server.key()]]);
            const clock = new SimClock(0);
            const pending: { due: number }[] = [];
            const tracker = new BookTracker({
              clock,
              port: { requestSnapshot: () => pending.push({ due: 0 }) > 0 },
              config: { stall: { enabled: false } },
            });
            let gatewayMalformed = 0;
            let deliveries = 0;

            /** One text through the live path; checks the per-frame invariants. */
            const deliver = (text: string) => {
              deliveries++;
              const before = {
                counted: counted(tracker.counters),
                malformed: tracker.counters.malformed,
                gw: gatewayMalformed,
              };
              const wireBefore = JSON.stringify(tracker.book(TOKEN)?.toWire());
              const parsed = tryParse(text);
              const r =
                parsed.ok &&
                typeof parsed.value === "object" &&
                parsed.value !== null &&
                !Array.isArray(parsed.value)
                  ? parseEventFrame(parsed.value as Record<string, unknown>, "market")
                  : { rejected: "not_json" as const };
              if ("rejected" in r) gatewayMalformed++;
              else tracker.onEvent(r.event as BookEvent);
              expect(counted(tracker.counters) - before.counted + gatewayMalformed - before.gw).toBe(1);
              const st = tracker.state(TOKEN);
              if (tracker.counters.malformed > before.malformed) {
                expect(JSON.stringify(tracker.book(TOKEN)?.toWire())).toBe(wireBefore);
                expect(st?.status).toBe("resyncing");
              }
              if (st?.status === "synced") {
                expect(tracker.book(TOKEN)?.toWire()).toEqual(
                  ReferenceBook.fromKey(states.get(st.lastSeq as number) as string).wire(),
                );
              }
              for (const side of ["bids", "asks"] as const) {
                for (const l of tracker.book(TOKEN)?.toWire()[side] ?? []) {
                  expect(parsePriceMicro(l.price)).toBeGreaterThan(0);
                  expect(new Dec(l.size).gt(0)).toBe(true);
                }
              }
            };

            let serverSeq = seq0;
            let asked = 0;
            const answer = (corruption: boolean) => {
              const a = answers[asked++ % answers.length] as (typeof answers)[number];
              if (corruption && a.failed) {
                deliver(JSON.stringify(envelope("book_snapshot_failed", { tokenId: TOKEN, reason: "busy" })));
                return;
              }
              const w = ReferenceBook.fromKey(states.get(serverSeq) as string).wire();
              const frame = envelope("book_snapshot", {
                tokenId: TOKEN,
                bids: w.bids,
                asks: w.asks,
                seq: serverSeq,
                tsMs: clock.now(),
              });
              deliver(
                corruption && a.corrupt !== undefined ? corrupt(frame, a.corrupt) : JSON.stringify(frame),
              );
            };
            const answerDue = (corruption: boolean) => {
              for (const p of [...pending]) {
                if (corruption && p.due++ < (answers[asked % answers.length]?.delay ?? 0)) continue;
                pending.splice(pending.indexOf(p), 1);
                answer(corruption);
              }
            };

            tracker.track(TOKEN);
            pending.push({ due: 0 }); // the snapshot every subscribe brings
            answerDue(true);
            // The last frame arrives intact: a lost frame shows only as the gap before the next one.
            for (const spec of [...specs, { update: false, changes: [], corrupt: undefined }]) {
              clock.advanceBy(250);
              const seq = ++serverSeq;
              const changes = spec.changes.map(toChange);
              server.applyAll(changes);
              states.set(seq, server.key());
              const w = server.wire();
              const frame = spec.update
                ? envelope("book_update", {
                    tokenId: TOKEN,
                    seq,
                    prevSeq: seq - 1,
                    bids: w.bids,
                    asks: w.asks,
                  })
                : envelope("book_delta", { tokenId: TOKEN, seq, prevSeq: seq - 1, changes });
              deliver(spec.corrupt === undefined ? JSON.stringify(frame) : corrupt(frame, spec.corrupt));
              answerDue(true);
            }
            // The corruption stops: answers come straight, and retries are driven by the clock.
            for (let i = 0; i < 60; i++) {
              const st = tracker.state(TOKEN);
              if (st?.status === "synced" && st.lastSeq === serverSeq && pending.length === 0) break;
              if (pending.length > 0) answerDue(false);
              else clock.step();
            }
            expect(tracker.state(TOKEN)).toMatchObject({ status: "synced", lastSeq: serverSeq });
            expect(tracker.book(TOKEN)?.toWire()).toEqual(server.wire());
            expect(deliveries).toBeGreaterThan(specs.length);
            tracker.close();
          },
        ),
        0.1,
      );
    },
    timeoutFor(0.1),
  );
});
