import { describe, expect, it } from "vitest";
import { oneTokenSession } from "./support/one-token-session.js";

const TOKEN = "123456";

const frame = (type: string, data: Record<string, unknown>) => ({
  type,
  sid: 1,
  channel: "token_book",
  id: TOKEN,
  data: { tokenId: TOKEN, tsMs: 1, ...data },
});

/**
 * A recorded book frame the gateway's parser refuses reaches the bot's tracker as a lost frame,
 * as in live mode (MarketDataFeed → BookTracker.frameLost): its book resyncs a feed latency later
 * rather than staying synced until a later frame shows the gap.
 */
describe("SimSession: a refused recorded book frame", () => {
  it("is counted and makes the bot's book resync a feed latency later", async () => {
    const { session } = oneTokenSession(TOKEN, { margin: "0.02" });
    await session.start();
    const bids = [{ price: "0.40", size: "10" }];
    const asks = [{ price: "0.60", size: "10" }];
    session.marketFrame(frame("book_snapshot", { seq: 1, bids, asks }));
    await session.pump.advanceTo(1_010);
    expect(session.tracker.state(TOKEN)?.status).toBe("synced");

    session.marketFrame(frame("book_delta", { seq: "2", prevSeq: 1, changes: [] }));
    expect([...session.counters.rejected.keys()]).toHaveLength(1);
    expect(session.tracker.state(TOKEN)?.status).toBe("synced"); // the bot has not seen it yet
    await session.pump.advanceTo(1_015);
    expect(session.tracker.state(TOKEN)).toMatchObject({ status: "resyncing", reason: "malformed" });
    expect(session.tracker.counters.malformed).toBe(1);
    // The snapshot the tracker asks for comes from the exchange's book, and it is synced again.
    await session.pump.advanceTo(1_100);
    expect(session.tracker.state(TOKEN)?.status).toBe("synced");
    expect(session.counters.snapshotsServed).toBe(1);
    await session.finish();
  });
});
