import { afterEach, describe, expect, it } from "vitest";
import type { BookStateEvent } from "../../../src/book/book-state.js";
import { MarketDataFeed } from "../../../src/gateway/market-data-feed.js";
import { churn, type Mock, market, marketClient, startMock, until, venueWire } from "./harness.js";

let mock: Mock;
let feed: MarketDataFeed;
afterEach(async () => {
  await feed?.close();
  await mock?.close();
});

/** A feed on the mock's SimClock, subscribed to both outcomes of the first open market. */
async function booksFeed(): Promise<{ tokens: string[]; states: BookStateEvent[] }> {
  mock = await startMock();
  feed = new MarketDataFeed({ client: marketClient(mock), clock: mock.clock });
  const states: BookStateEvent[] = [];
  feed.tracker.onState((s) => states.push(s));
  await feed.start();
  const m = market(mock);
  churn(mock, m, 40, 1); // history before the subscription
  const tokens = [m.yesTokenId, m.noTokenId];
  const out = await feed.subscribeBooks(tokens);
  expect(out.accepted).toEqual(tokens);
  await converged(tokens, "the initial snapshots");
  return { tokens, states };
}

const equalToVenue = (t: string): boolean =>
  feed.tracker.state(t)?.status === "synced" &&
  JSON.stringify(feed.tracker.book(t)?.toWire()) === JSON.stringify(venueWire(mock, t));

async function converged(tokens: string[], what: string): Promise<void> {
  await until(() => tokens.every(equalToVenue), what);
  for (const t of tokens) expect(feed.tracker.book(t)?.toWire()).toEqual(venueWire(mock, t));
}

describe("MarketDataFeed over the mock's /ws/market", () => {
  it("follows the venue's books through snapshot and deltas", async () => {
    const { tokens } = await booksFeed();
    churn(mock, market(mock), 200, 2);
    await converged(tokens, "books after 200 orders");
    expect(feed.tracker.counters.deltas).toBeGreaterThan(100);
    expect(feed.tracker.counters.gaps).toBe(0);
    expect(feed.client.counters.malformed).toEqual({});
  });

  it("a seq gap (admin.skipSeq) makes the book resync through get_book_snapshot and converge", async () => {
    const { tokens, states } = await booksFeed();
    const [yes] = tokens as [string, string];
    const snapshotsBefore = feed.tracker.counters.snapshots;
    mock.admin.skipSeq(yes);
    churn(mock, market(mock), 60, 3);
    await until(() => feed.tracker.counters.gaps >= 1, "the gap to be seen");
    await converged(tokens, "books after the resync");
    expect(feed.client.counters.snapshotRequests).toBe(1);
    expect(feed.client.counters.framesByType.book_snapshot_requested).toBe(1);
    expect(feed.tracker.counters.snapshots).toBe(snapshotsBefore + 1);
    const yesStates = states.filter((s) => s.tokenId === yes).map((s) => `${s.status}:${s.reason}`);
    expect(yesStates.slice(-2)).toEqual(["resyncing:gap", "synced:snapshot"]);
    // More activity after the resync stays contiguous.
    churn(mock, market(mock), 60, 4);
    await converged(tokens, "books after more orders");
    expect(feed.tracker.counters.gaps).toBe(1);
  });

  it("after admin.dropAllSockets it reconnects, resubscribes, resnapshots and converges", async () => {
    const { tokens, states } = await booksFeed();
    const client = feed.client;
    const before = feed.tracker.counters.snapshots;
    mock.admin.dropAllSockets();
    await until(() => client.counters.disconnects === 1, "the drop to be seen");
    // Frames lost while disconnected: the books must not pretend to be current.
    for (const t of tokens) expect(feed.tracker.state(t)?.status).toBe("resyncing");
    churn(mock, market(mock), 80, 5);
    // The back-off timer runs on the SimClock: move it along until the link is back.
    await until(() => client.counters.reconnects === 1, "the reconnect", {
      clock: mock.clock,
      advanceMs: 100,
    });
    await converged(tokens, "books after the reconnect");
    expect(feed.tracker.counters.snapshots).toBe(before + 2); // one per book, from the resubscribe
    const [list] = await client.listSubscriptions();
    expect(list?.subscriptions.flatMap((s) => s.ids).sort()).toEqual([...tokens].sort());
    expect(client.counters).toMatchObject({
      connectionsOpened: 2,
      connectionsOpen: 1,
      connectAttempts: 2,
      fatal: 0,
    });
    const reasons = states.filter((s) => s.tokenId === tokens[0]).map((s) => `${s.status}:${s.reason}`);
    expect(reasons.slice(-2)).toEqual(["resyncing:resubscribed", "synced:snapshot"]);
    churn(mock, market(mock), 40, 6);
    await converged(tokens, "books after more orders");
  });
});
