import { afterEach, describe, expect, it, vi } from "vitest";
import { SimVenue } from "../../../src/venue/sim-venue.js";
import { Harness } from "./support/harness.js";

/**
 * DecisionLog.step returns early when the token's standing signature is unchanged, before it looks at
 * what the event logged. A book still in its first wait has the standing [book_resyncing] logged at
 * debug (shown = false). When its first snapshot and a gap arrive in one socket read (one flush of the
 * engine: synced, then resyncing), the gap's event is logged at info (the book had been synced), but
 * the step that follows has the same signature as the first wait's standing, so the standing stays
 * "not shown" — and the recovery ("risk: cleared") is then written at debug. The operator sees a
 * resync at info and never its end (README: "a book that resyncs … after it had been synced is
 * logged once, and its recovery once").
 */
describe("a resync right after the first snapshot", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("logs the recovery at info, as the resync itself was", async () => {
    // No snapshot at construction: the books stay in their first wait.
    const spy = vi.spyOn(SimVenue.prototype, "bookSnapshot").mockReturnValue(undefined);
    const h = new Harness();
    spy.mockRestore();
    const [yes] = h.tokens();
    await h.engine.start();
    await h.run(); // the quoting step of the first wait: [book_resyncing], at debug
    const info = () => h.logs.records().filter((r) => Number(r.level) >= 30 && r.tokenId === yes);
    expect(info()).toEqual([]);

    // The first snapshot and, in the same read, a delta past a gap.
    h.holdSnapshots = true;
    h.tracker.onEvent({
      type: "book_snapshot",
      tokenId: yes,
      seq: h.venue.bookSnapshot(yes)?.seq ?? 0,
      bids: [],
      asks: [],
      tsMs: h.clock.now(),
    });
    h.gap(yes);
    expect(h.tracker.state(yes)?.status).toBe("resyncing");
    await h.run();
    expect(info().map((r) => r.msg)).toEqual(["risk: book_resyncing"]); // news: the book had been synced

    h.releaseSnapshots();
    await h.run();
    expect(h.tracker.state(yes)?.status).toBe("synced");
    // The recovery is written, but at the level of the first wait's standing (debug).
    expect(h.logs.records().some((r) => r.msg === "risk: cleared" && r.tokenId === yes)).toBe(true);
    expect(info().map((r) => r.msg)).toEqual(["risk: book_resyncing", "risk: cleared"]);
  });
});
