import { afterEach, describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import { GatewayClient } from "../../../src/gateway/client.js";
import { MarketDataFeed } from "../../../src/gateway/market-data-feed.js";
import { politeAnswer, RawServer } from "../gateway/raw-server.js";

/*
 * Review 15 (parking). README (mm_book_snapshot_failures_total): a timeout is "not counted while
 * nothing can be asked: a connection down"; alerts.yml MmBookStale: "while a connection is down its
 * books wait for the reconnect, with no snapshot requested or failed".
 * A book that starts being tracked while its /ws/market link is down (subscribeBooks after the
 * link dropped: Feeds.start's window between market.start() and subscribeBooks, or any later
 * subscribe) is never parked: track() arms the 10 s wait for the subscribe's snapshot although no
 * subscribe could go out, so every such book counts one snapshot timeout during the outage.
 */

const TOKENS = ["1001", "1002", "1003"];
let server: RawServer | undefined;
let feed: MarketDataFeed | undefined;
afterEach(async () => {
  await feed?.close();
  await server?.close();
  feed = undefined;
  server = undefined;
});

async function run(clock: SimClock, ms: number): Promise<void> {
  for (let t = 0; t < ms; t += 250) {
    clock.advanceBy(250);
    await new Promise((r) => setTimeout(r, 1));
  }
}

describe("parking: books tracked while their link is down", () => {
  it("count no snapshot timeout while nothing could be asked", async () => {
    const srv = await new RawServer(politeAnswer()).listen();
    const clock = new SimClock(1_000_000);
    const client = new GatewayClient({
      url: srv.url,
      gateway: "market",
      apiKey: "k",
      clock,
      random: () => 0.5,
    });
    const f = new MarketDataFeed({ client, clock, tracker: { stall: { enabled: false } } });
    feed = f;
    await f.start();
    await srv.close(); // the exchange goes away: every reconnect is refused (an outage)
    for (let i = 0; i < 100 && client.linkStates()[0] === "open"; i++)
      await new Promise((r) => setTimeout(r, 5));
    expect(client.linkStates()[0]).not.toBe("open");

    void f.subscribeBooks(TOKENS).catch(() => undefined); // waits for a link that is down
    await run(clock, 60_000);

    expect(client.counters.commandsSent).toBe(0); // nothing could be asked …
    for (const t of TOKENS)
      expect(f.tracker.state(t)).toMatchObject({ status: "resyncing", quotable: false });
    // … so nothing "timed out" (mm_book_snapshot_failures_total{kind="timeout"}).
    expect(f.tracker.counters.snapshotTimeouts).toBe(0);
  });
});
