import { describe, expect, it } from "vitest";
import { Harness } from "./support/harness.js";

const WARN = "book: no first snapshot since start, token not quoted";
const ARRIVED = "book: first snapshot arrived";
/** The bound: the stall watch's liveness timeout, 3 snapshot timeouts of the tracker. */
const FIRST_SNAPSHOT_WARN_MS = 30_000;

/** Log lines of `msg` at `level` or above (optionally of one token). */
function lines(h: Harness, msg: string, tokenId?: string, level = 30): Record<string, unknown>[] {
  return h.logs
    .records()
    .filter(
      (r) => r.msg === msg && Number(r.level) >= level && (tokenId === undefined || r.tokenId === tokenId),
    );
}

/**
 * A book's wait for its first snapshot is logged at debug (routine at every start). A book that never
 * gets one (the exchange never answers its subscription, its snapshot keeps arriving crossed, the
 * subscribe was refused) was then silent at info and warn: the bot never quoted the token, and only
 * the metrics and /ready showed it. Now one warn line per such token, a bounded time after start,
 * names it and its market; its eventual arrival is logged at info once.
 */
describe("engine: a book still without its first snapshot after start", () => {
  it("is warned about once, 30 s after start, naming token and market; its arrival is logged at info once", async () => {
    const w = new Harness({ withhold: ["11"] });
    const [yes, no] = w.tokens();
    expect(yes).toBe("11");
    // Counted from start, not from construction (the daemon subscribes in between).
    await w.run(40_000);
    await w.engine.start();
    await w.run(FIRST_SNAPSHOT_WARN_MS - 1);
    expect(lines(w, WARN)).toEqual([]);
    await w.run(1);
    const warned = lines(w, WARN, undefined, 40);
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatchObject({
      tokenId: yes,
      marketId: "m1",
      outcome: "YES",
      status: "resyncing",
      reason: "awaiting_snapshot",
      crossed: false,
      waitedMs: FIRST_SNAPSHOT_WARN_MS,
    });
    expect(w.botQuotes(yes)).toEqual([]);
    // One line per token: not repeated while the wait goes on, none for the synced book.
    await w.run(120_000);
    expect(lines(w, WARN)).toHaveLength(1);
    expect(lines(w, WARN, no)).toEqual([]);

    // The exchange answers at last: the tracker's next retry brings the snapshot.
    w.withheld.delete(yes);
    await w.run(60_000);
    expect(w.tracker.state(yes)?.status).toBe("synced");
    const arrived = lines(w, ARRIVED);
    expect(arrived).toHaveLength(1);
    expect(arrived[0]).toMatchObject({ tokenId: yes, marketId: "m1", outcome: "YES", level: 30 });
    expect(Number(arrived[0]?.waitedMs)).toBeGreaterThan(150_000);

    // A later resync and recovery are the decision log's business, not a first snapshot again.
    w.holdSnapshots = true;
    w.tracker.onEvent({ type: "book_delta", tokenId: yes, seq: 1_000, prevSeq: 999, changes: [] });
    await w.run(1_000);
    expect(w.tracker.state(yes)?.status).toBe("resyncing");
    w.releaseSnapshots();
    await w.run(60_000);
    expect(lines(w, ARRIVED)).toHaveLength(1);
    expect(lines(w, WARN)).toHaveLength(1);
    await w.engine.stop("test over", 1_000);
  });

  it("says the snapshot keeps arriving crossed (resync policy)", async () => {
    const h = new Harness({ withhold: ["11"] });
    const [yes] = h.tokens();
    await h.engine.start();
    const crossed = { bids: [{ price: "0.60", size: "10" }], asks: [{ price: "0.50", size: "10" }] };
    h.tracker.onEvent({ type: "book_snapshot", tokenId: yes, seq: 5, ...crossed });
    await h.run(5_000);
    h.tracker.onEvent({ type: "book_snapshot", tokenId: yes, seq: 9, ...crossed });
    await h.run(FIRST_SNAPSHOT_WARN_MS);
    expect(h.tracker.state(yes)).toMatchObject({ status: "resyncing", crossed: true });
    expect(lines(h, WARN, undefined, 40)).toMatchObject([
      { tokenId: yes, marketId: "m1", status: "resyncing", crossed: true },
    ]);
    await h.engine.stop("test over", 1_000);
  });

  it("is not about a book synced before start that resyncs later", async () => {
    const h = new Harness();
    const [yes] = h.tokens();
    await h.engine.start();
    await h.run(5_000);
    h.holdSnapshots = true;
    h.tracker.onEvent({ type: "book_delta", tokenId: yes, seq: 1_000, prevSeq: 999, changes: [] });
    await h.run(2 * FIRST_SNAPSHOT_WARN_MS);
    expect(h.tracker.state(yes)?.status).toBe("resyncing");
    expect(lines(h, WARN, undefined, 0)).toEqual([]);
    await h.engine.stop("test over", 1_000);
  });

  it("is not about a settled market's books (never subscribed when listed settled; retired when it settles)", async () => {
    // Market 1 listed RESOLVED at start, market 2 resolving before its books' first snapshot.
    const h = new Harness({
      markets: 2,
      status: (i) => (i === 1 ? "RESOLVED" : "OPEN"),
      withhold: ["11", "12", "21", "22"],
    });
    await h.engine.start();
    h.engine.onMarketStatus("m2", "RESOLVED");
    await h.run(2 * FIRST_SNAPSHOT_WARN_MS);
    expect(lines(h, WARN, undefined, 0)).toEqual([]);
    await h.engine.stop("test over", 1_000);
  });

  it("says nothing once the engine has stopped", async () => {
    const h = new Harness({ withhold: ["11", "12"] });
    await h.engine.start();
    await h.run(10_000);
    await h.engine.stop("test over", 1_000);
    await h.run(2 * FIRST_SNAPSHOT_WARN_MS);
    expect(lines(h, WARN, undefined, 0)).toEqual([]);
  });
});
