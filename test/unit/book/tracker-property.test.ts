import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { BookEvent } from "../../../src/book/events.js";
import { BookTracker } from "../../../src/book/tracker.js";
import { SimClock } from "../../../src/core/sim-clock.js";
import { ReferenceBook } from "./reference-book.js";

/*
 * Random snapshot/delta/update streams through an unreliable network (frames dropped, duplicated,
 * swapped) with a port that answers get_book_snapshot a few frames later (sometimes with
 * book_snapshot_failed) with the server's book at that moment. Properties:
 * - whenever the tracker says `synced`, its book equals the server's book at the tracker's seq;
 * - once the last frame and any pending snapshot are in, the book equals the server's final book.
 * Bids live on 0.40–0.49 and asks on 0.51–0.60, so the server's book is never crossed.
 */

const TOKEN = "77";
const SIZES = ["0", "0", "1", "2.5", "3", "10.25", "123456789.000001"];

const changeArb = fc.record({
  bid: fc.boolean(),
  tick: fc.integer({ min: 0, max: 9 }),
  size: fc.constantFrom(...SIZES),
});
const frameArb = fc.record({
  update: fc.integer({ min: 0, max: 99 }).map((x) => x < 10),
  changes: fc.array(changeArb, { maxLength: 4 }),
  drop: fc.integer({ min: 0, max: 99 }).map((x) => x < 12),
  swap: fc.integer({ min: 0, max: 99 }).map((x) => x < 8),
  dupAfter: fc.integer({ min: -6, max: 3 }), // < 0: no duplicate
});
const answerArb = fc.record({ delay: fc.integer({ min: 0, max: 4 }), fail: fc.integer({ min: 0, max: 99 }) });

type Change = { side: string; price: string; size: string };
const priceOf = (bid: boolean, tick: number) => (bid ? `0.4${tick}` : `0.${51 + tick}`);

describe("BookTracker property: unreliable stream with resnapshots", () => {
  it("a synced book always equals the server's book at its seq, and the final book the final one", () => {
    fc.assert(
      fc.property(
        fc.array(changeArb, { maxLength: 12 }),
        fc.integer({ min: 1, max: 1_000 }),
        fc.array(frameArb, { minLength: 1, maxLength: 40 }),
        fc.array(answerArb, { minLength: 1, maxLength: 8 }),
        (initial, seq0, specs, answers) => {
          // The server: its book after each seq.
          const server = new ReferenceBook();
          const toChange = (c: { bid: boolean; tick: number; size: string }): Change => ({
            side: c.bid ? "buy" : "sell",
            price: priceOf(c.bid, c.tick),
            size: c.size,
          });
          server.applyAll(initial.map(toChange));
          const states = new Map<number, string>([[seq0, server.key()]]);
          const frames: BookEvent[] = specs.map((spec, i) => {
            const seq = seq0 + i + 1;
            const changes = spec.changes.map(toChange);
            server.applyAll(changes);
            states.set(seq, server.key());
            const w = server.wire();
            return spec.update
              ? { type: "book_update", tokenId: TOKEN, seq, prevSeq: seq - 1, bids: w.bids, asks: w.asks }
              : { type: "book_delta", tokenId: TOKEN, seq, prevSeq: seq - 1, changes };
          });
          const wireAt = (seq: number) => ReferenceBook.fromKey(states.get(seq) as string).wire();
          const lastSeq = seq0 + frames.length;

          // The network: swaps, drops and duplicates; the last frame always arrives, last.
          const order = frames.slice(0, -1).map((f, i) => ({ f, i }));
          for (let i = 0; i + 1 < order.length; i++) {
            if (specs[i]?.swap === true)
              [order[i], order[i + 1]] = [order[i + 1] as never, order[i] as never];
          }
          const schedule: { f: BookEvent; dropped: boolean }[] = [];
          for (const { f, i } of order) schedule.push({ f, dropped: specs[i]?.drop === true });
          for (const [i, s] of [...schedule.entries()].reverse()) {
            const dup = specs[i]?.dupAfter ?? -1;
            if (!s.dropped && dup >= 0) schedule.splice(Math.min(i + 1 + dup, schedule.length), 0, { ...s });
          }
          schedule.push({ f: frames[frames.length - 1] as BookEvent, dropped: false });

          // The exchange's answers to get_book_snapshot, a few frames later, at the server's seq then.
          const clock = new SimClock(0);
          const pending: { due: number }[] = [];
          let requests = 0;
          const port = {
            requestSnapshot: () => {
              const a = answers[requests++ % answers.length] ?? { delay: 0, fail: 100 };
              pending.push({ due: a.delay });
              return true;
            },
          };
          const tracker = new BookTracker({ clock, port, config: { stall: { enabled: false } } });
          const check = () => {
            const st = tracker.state(TOKEN);
            if (st?.status === "synced") {
              expect(tracker.book(TOKEN)?.toWire()).toEqual(wireAt(st.lastSeq as number));
            }
          };
          let serverSeq = seq0;
          let answered = 0;
          const answerDue = (force: boolean) => {
            for (const p of [...pending]) {
              if (!force && p.due-- > 0) continue;
              pending.splice(pending.indexOf(p), 1);
              const fail = !force && (answers[answered++ % answers.length]?.fail ?? 100) < 15;
              if (fail) tracker.onEvent({ type: "book_snapshot_failed", tokenId: TOKEN, reason: "busy" });
              else {
                const w = wireAt(serverSeq);
                tracker.onEvent({
                  type: "book_snapshot",
                  tokenId: TOKEN,
                  seq: serverSeq,
                  bids: w.bids,
                  asks: w.asks,
                });
              }
              check();
            }
          };

          tracker.track(TOKEN);
          const first = wireAt(seq0);
          tracker.onEvent({
            type: "book_snapshot",
            tokenId: TOKEN,
            seq: seq0,
            bids: first.bids,
            asks: first.asks,
          });
          check();
          for (const { f, dropped } of schedule) {
            clock.advanceBy(200);
            if ("seq" in f && f.seq !== undefined) serverSeq = Math.max(serverSeq, f.seq);
            if (!dropped) {
              tracker.onEvent(f);
              check();
            }
            answerDue(false);
          }
          // Drain: answer everything still asked for; let back-off timers ask again if needed.
          for (let i = 0; i < 50; i++) {
            const st = tracker.state(TOKEN);
            if (st?.status === "synced" && st.lastSeq === lastSeq && pending.length === 0) break;
            if (pending.length > 0) answerDue(true);
            else clock.step();
          }
          expect(tracker.state(TOKEN)).toMatchObject({ status: "synced", lastSeq });
          expect(tracker.book(TOKEN)?.toWire()).toEqual(wireAt(lastSeq));
          tracker.close();
        },
      ),
      { numRuns: 400 },
    );
  });

  it("never throws on arbitrary entries and counts what it cannot use", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.anything(), fc.integer({ min: 0, max: 5 }))), (junk) => {
        const tracker = new BookTracker({ clock: new SimClock(0), port: { requestSnapshot: () => true } });
        tracker.onEvent({ type: "book_snapshot", tokenId: TOKEN, seq: 0, bids: [], asks: [] });
        let seq = 0;
        for (const [raw, kind] of junk) {
          const changes = kind === 0 ? [raw] : raw;
          tracker.onEvent({ type: "book_delta", tokenId: TOKEN, seq: seq + 1, prevSeq: seq, changes });
          if (kind === 1)
            tracker.onEvent({ type: "book_snapshot", tokenId: TOKEN, seq: seq + 1, bids: raw, asks: [] });
          seq++;
        }
        const c = tracker.counters;
        expect(c.deltas + c.malformed + c.droppedWhileResyncing).toBeGreaterThanOrEqual(junk.length);
        tracker.close();
      }),
      { numRuns: 300 },
    );
  });
});
