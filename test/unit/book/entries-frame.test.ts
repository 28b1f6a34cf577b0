import { describe, expect, it } from "vitest";
import { parseBookInto, parseChanges, parseChangesInto } from "../../../src/book/entries.js";
import { isFrameRejection, parseBookFrame } from "../../../src/book/frame.js";
import { LevelBuffer } from "../../../src/book/level-buffer.js";

describe("entries adapter", () => {
  it("parses bids then asks into one buffer", () => {
    const buf = new LevelBuffer();
    const bad = parseBookInto(
      [{ price: "0.5", size: "10", extra: 1 }],
      [
        { price: "0.6", size: "1.5" },
        { price: "0.7", size: "0" },
      ],
      buf,
    );
    expect(bad).toBeUndefined();
    expect(buf.length).toBe(3);
    expect(buf.firstAsk).toBe(1);
    expect(buf.bid.slice(0, 3)).toEqual([1, 0, 0]);
    expect(buf.prices.slice(0, 3)).toEqual([500_000, 600_000, 700_000]);
    expect(buf.sizes.slice(0, 3)).toEqual([10_000_000n, 1_500_000n, 0n]);
  });

  it("accepts every documented side spelling", () => {
    const sides = ["buy", "BUY", "bid", "BID", "sell", "SELL", "ask", "ASK"];
    const parsed = parseChanges(sides.map((side) => ({ side, price: "0.5", size: "1" })));
    expect(Array.isArray(parsed) && parsed.map((p) => p.side)).toEqual([
      "bid",
      "bid",
      "bid",
      "bid",
      "ask",
      "ask",
      "ask",
      "ask",
    ]);
  });

  it.each([
    [{ not: "an array" }, { code: "entries_not_array", index: -1 }],
    [[null], { code: "entry_not_object", index: 0 }],
    [
      [
        { side: "buy", price: "0.5", size: "1" },
        { side: "Buy", price: "0.5", size: "1" },
      ],
      { code: "bad_side", index: 1 },
    ],
    [[{ side: "sell", price: 0.5, size: "1" }], { code: "bad_price", index: 0 }],
    [[{ side: "sell", price: "1.5", size: "1" }], { code: "bad_price", index: 0 }],
    [[{ side: "sell", price: "0.5", size: "-1" }], { code: "bad_size", index: 0 }],
    [[{ side: "sell", price: "0.5" }], { code: "bad_size", index: 0 }],
  ])("rejects malformed changes without throwing: %j", (raw, expected) => {
    const buf = new LevelBuffer();
    expect(parseChangesInto(raw, buf)).toEqual({ ...expected, list: "changes" });
  });

  it("names the list of a bad level", () => {
    const buf = new LevelBuffer();
    expect(parseBookInto([], [{ price: "x", size: "1" }], buf)).toEqual({
      code: "bad_price",
      list: "asks",
      index: 0,
    });
    expect(parseBookInto(undefined, [], buf)).toEqual({ code: "entries_not_array", list: "bids", index: -1 });
  });
});

describe("parseBookFrame", () => {
  const frame = (type: string, data: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    type,
    sid: "s1",
    channel: "token_book",
    id: "123",
    data: { tokenId: "123", ...data },
    ...extra,
  });

  it("turns a delta frame into an event, entries untouched", () => {
    const changes = [{ side: "buy", price: "0.5", size: "1" }];
    expect(
      parseBookFrame(frame("book_delta", { seq: 5, prevSeq: 4, changes, tsMs: 9, outcomeIndex: 0 })),
    ).toEqual({
      type: "book_delta",
      tokenId: "123",
      seq: 5,
      prevSeq: 4,
      changes,
      tsMs: 9,
      outcomeIndex: 0,
    });
  });

  it("keeps frames lacking seq (null counts as lacking) for the tracker to drop", () => {
    const e = parseBookFrame(frame("book_update", { seq: null, bids: [], asks: [] }));
    expect(isFrameRejection(e)).toBe(false);
    expect((e as { seq?: number }).seq).toBeUndefined();
    const s = parseBookFrame(frame("book_snapshot", { seq: 3, bids: [], asks: [] }));
    expect(s).toMatchObject({ type: "book_snapshot", seq: 3 });
    expect(parseBookFrame(frame("book_snapshot_failed", {}))).toMatchObject({ reason: "unspecified" });
  });

  it.each([
    [null, "not_object"],
    [{ type: "trade_matched", channel: "token_trade_matches" }, "not_book_event"],
    [{ ...frame("book_delta", {}), channel: "token_ohlc" }, "bad_channel"],
    [{ ...frame("book_delta", {}), data: [] }, "bad_data"],
    [frame("book_delta", { tokenId: "999" }), "bad_token"],
    [frame("book_delta", { tokenId: "12a" }, { id: "12a" }), "bad_token"],
    [frame("book_delta", { seq: 1.5, prevSeq: 0 }), "bad_seq"],
    [frame("book_delta", { seq: 2, prevSeq: "1" }), "bad_seq"],
    [frame("book_delta", { seq: 2, prevSeq: 1, tsMs: "now" }), "bad_ts"],
  ])("rejects %j as %s", (f, code) => {
    const e = parseBookFrame(f);
    expect(isFrameRejection(e) && e.rejected).toBe(code);
  });
});
