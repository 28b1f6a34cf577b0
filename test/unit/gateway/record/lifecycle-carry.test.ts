import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LifecycleMemory } from "../../../../src/backtest/sim/lifecycle.js";
import { LifecycleCarry } from "../../../../src/gateway/record/lifecycle-carry.js";
import { RotatingWriter } from "../../../../src/gateway/record/rotating-writer.js";
import { parseEventFrame } from "../../../../src/gateway/schema/events.js";
import { type MarketFrame, type RecordedFrame, readRecorded } from "../../../../src/recorded/format.js";
import { SetClock } from "../../../support/set-clock.js";

/*
 * s18 recfix: a rotated file replayed alone knew nothing of a pause, a status or a resolution
 * recorded in an earlier file. The recorder now writes the lifecycle state it has recorded at the
 * head of each rotated file, as frames marked "sid": "carry", "via": "rotation".
 */

const A = `0x${"aa".repeat(32)}`;
const B = `0x${"bb".repeat(32)}`;
const dir = mkdtempSync(join(tmpdir(), "mm-carry-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const lifecycle = (type: string, conditionId: string, extra: Record<string, unknown> = {}): MarketFrame => ({
  type,
  sid: 3,
  channel: "condition_lifecycle",
  id: conditionId,
  data: { conditionId, tsMs: 1, ...extra },
});
const paused = (c: string) => lifecycle("market_paused", c);
const status = (c: string, s: string) => ({
  ...lifecycle("market_status", c, { status: s }),
  sid: "rest",
  via: "GET",
});
const resolved = (c: string) =>
  lifecycle("market_resolved", c, { resolution: "YES", payouts: { "0": "1", "1": "0" } });
const platformData = (data: Record<string, unknown>): MarketFrame => ({
  type: "platform_status",
  sid: 4,
  channel: "system",
  id: "platform_status",
  data,
});
const platform = (frozen: boolean): MarketFrame => platformData({ frozen });
const book: MarketFrame = { type: "book_delta", sid: 1, channel: "token_book", id: "7", data: {} };
const carried = (f: MarketFrame) => ({ ...f, sid: "carry", via: "rotation" });

describe("LifecycleCarry", () => {
  it("carries each market's and the platform's last lifecycle frame, the resolution (payouts) before a later status", () => {
    const c = new LifecycleCarry();
    for (const f of [
      paused(A),
      book,
      platform(true),
      resolved(B),
      status(B, "RESOLVED"),
      book,
      platform(false),
    ])
      c.accepted(f);
    expect(c.heads(7)).toEqual([
      carried(paused(A)),
      carried(platform(false)),
      carried(resolved(B)),
      carried(status(B, "RESOLVED")),
    ]);
  });

  it("carries the state as of the frames in the earlier files, not the ones still queued", () => {
    const c = new LifecycleCarry();
    for (const f of [paused(A), book, status(A, "OPEN"), resolved(A)]) c.accepted(f);
    expect(c.heads(2)).toEqual([carried(paused(A))]); // the OPEN and the resolution go into the new file
    expect(c.heads(3)).toEqual([carried(status(A, "OPEN"))]);
    expect(c.heads(4)).toEqual([carried(resolved(A))]);
  });

  /*
   * review18 r2-replay: the spec's platform_status is a passthrough whose `frozen` is optional (the
   * parser and the replay take a frame without it as saying nothing of the freeze). The carry kept
   * the platform's LAST frame whatever it held: a freeze followed by an eta update was carried as
   * the update alone, and a rotated file replayed alone quoted through the freeze.
   */
  it("carries the platform's last frame saying `frozen` before a later update without it", () => {
    const c = new LifecycleCarry();
    const freeze = platformData({ frozen: true, reason: "maintenance" });
    const eta = platformData({ reason: "maintenance", etaUnfreeze: "2026-06-01T01:00:00Z" });
    for (const f of [freeze, book, eta]) c.accepted(f);
    const heads = c.heads(3);
    expect(heads).toEqual([carried(freeze), carried(eta)]);
    // What a rotated file replayed alone acts on: a carried frame the replay's memory calls new.
    const memory = new LifecycleMemory();
    const frozen: boolean[] = [];
    for (const f of heads) {
      const parsed = parseEventFrame(f as unknown as Record<string, unknown>, "market");
      if ("rejected" in parsed) continue;
      const e = parsed.event;
      if (!memory.adds(e)) continue;
      memory.note(e);
      if (e.type === "platform_status" && e.frozen !== undefined) frozen.push(e.frozen);
    }
    expect(frozen).toEqual([true]);
    // A later frame saying `frozen` replaces both.
    const thaw = platformData({ frozen: false });
    c.accepted(thaw);
    expect(c.heads(4)).toEqual([carried(thaw)]);
  });

  /*
   * s19 reccarry: `payouts` is optional on market_resolved. The carry kept only the LAST resolution:
   * one with payouts followed by one without (a re-push) was carried as the bare one, and a rotated
   * file replayed alone settled the market without its payouts, where the directory had them.
   */
  it("carries a market's last resolution with payouts before a later resolution without them", () => {
    const c = new LifecycleCarry();
    const bare = lifecycle("market_resolved", B, { resolution: "YES" });
    for (const f of [resolved(B), book, bare, book]) c.accepted(f);
    expect(c.heads(2)).toEqual([carried(resolved(B))]); // the bare one still queued
    expect(c.heads(4)).toEqual([carried(resolved(B)), carried(bare)]);
    // And after a later status: the payouts' frame, then the status.
    c.accepted(status(B, "RESOLVED"));
    expect(c.heads(5)).toEqual([carried(resolved(B)), carried(status(B, "RESOLVED"))]);
    // A resolution without payouts and nothing paid before: still the anchor before a later status.
    const d = new LifecycleCarry();
    for (const f of [bare, status(B, "RESOLVED")]) d.accepted(f);
    expect(d.heads(2)).toEqual([carried(bare), carried(status(B, "RESOLVED"))]);
  });

  it("carries no frame the replay's parser would refuse, and never a carried one", () => {
    const c = new LifecycleCarry();
    c.accepted({ ...paused(A), data: { conditionId: "0x12" } }); // bad conditionId, no tsMs
    c.accepted(carried(paused(B)));
    c.accepted(book);
    expect(c.heads(3)).toEqual([]);
  });
});

describe("RotatingWriter with a carry", () => {
  it("writes the carried frames at the head of each rotated file, at its first frame's recvTs, outside `frames`", async () => {
    const T0 = Date.parse("2026-06-01T00:00:00.000Z");
    const clock = new SetClock(T0);
    const w = new RotatingWriter({ dir, clock, policy: { maxAgeMs: 1_000 }, carry: new LifecycleCarry() });
    const frames: [number, MarketFrame][] = [
      [0, book],
      [100, paused(A)],
      [200, platform(true)],
      [1_500, book], // second file
      [1_600, resolved(A)],
      [3_000, book], // third file
    ];
    for (const [dt, frame] of frames) {
      clock.t = T0 + dt;
      w.write({ recvTs: clock.now(), frame });
      await w.flush();
    }
    await w.close();
    expect(w.failure).toBeUndefined();
    const files: RecordedFrame[][] = [];
    for (const f of w.files) {
      const recs: RecordedFrame[] = [];
      for await (const r of readRecorded(f)) recs.push(r);
      files.push(recs);
    }
    expect(files.map((f) => f.map((r) => [r.recvTs - T0, r.frame.sid, r.frame.type]))).toEqual([
      [
        [0, 1, "book_delta"],
        [100, 3, "market_paused"],
        [200, 4, "platform_status"],
      ],
      [
        [1_500, "carry", "market_paused"],
        [1_500, "carry", "platform_status"],
        [1_500, 1, "book_delta"],
        [1_600, 3, "market_resolved"],
      ],
      [
        [3_000, "carry", "market_resolved"],
        [3_000, "carry", "platform_status"],
        [3_000, 1, "book_delta"],
      ],
    ]);
    expect(files[2]?.[0]?.frame).toEqual(carried(resolved(A)));
    expect(w.frames).toBe(6);
    expect(w.carried).toBe(4);
  });
});
