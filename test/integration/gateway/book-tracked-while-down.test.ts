import { afterEach, describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import { GatewayClient } from "../../../src/gateway/client.js";
import { MarketDataFeed } from "../../../src/gateway/market-data-feed.js";
import { politeAnswer, RawServer } from "./raw-server.js";

/*
 * Books tracked while their /ws/market link is down (subscribeBooks after the link dropped:
 * Feeds.start's window between market.start() and subscribeBooks, a spill-over link still
 * connecting, any later subscribe during an outage). No subscribe can go out for them, so no
 * snapshot is coming: they are `resyncing` and parked at once, like the books of a dropped link,
 * with nothing requested or timed out (mm_book_snapshot_failures_total{kind="timeout"}) until the
 * link is back; then the resubscribe's snapshot syncs them.
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

describe("books tracked while their /ws/market link is down", () => {
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

  it("are subscribed when the link is back: the snapshot syncs them, and one missing is asked for", async () => {
    // While `down`, connections are cut before their `connected` frame: the link never opens.
    let down = false;
    const srv = await new RawServer(politeAnswer(), {
      connected: false,
      onConnection: (c) => {
        if (down) c.ws.terminate();
        else
          c.send({
            type: "connected",
            data: { gateway: "market", authMethod: "api_key", protocolVersion: 2 },
          });
      },
    }).listen();
    server = srv;
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
    down = true;
    client.dropLink(0);
    for (let i = 0; i < 100 && client.linkStates()[0] === "open"; i++)
      await new Promise((r) => setTimeout(r, 5));
    expect(client.linkStates()[0]).not.toBe("open");
    const subscribed = f.subscribeBooks(TOKENS);
    await run(clock, 30_000);
    expect(f.tracker.counters).toMatchObject({ snapshotTimeouts: 0, resyncs: 0 });

    down = false; // the next reconnect stays up and resubscribes
    for (let i = 0; i < 400 && client.linkStates()[0] !== "open"; i++) await run(clock, 250);
    await subscribed;
    const conn = srv.conns.at(-1);
    expect(srv.commands("subscribe").flatMap((c) => c.params?.subscriptions as unknown[])).toEqual([
      { channel: "token_book", ids: TOKENS },
    ]);
    for (const t of TOKENS.slice(0, 2)) {
      conn?.send({
        type: "book_snapshot",
        sid: 1,
        channel: "token_book",
        id: t,
        data: {
          tokenId: t,
          seq: 1,
          bids: [{ price: "0.5", size: "1" }],
          asks: [{ price: "0.6", size: "1" }],
        },
      });
    }
    await client.ping();
    for (const t of TOKENS.slice(0, 2)) expect(f.tracker.state(t)?.status).toBe("synced");
    // The third book's snapshot never comes: it was waited for (re-armed), so it is timed out and asked.
    await run(clock, 11_000);
    expect(f.tracker.counters.snapshotTimeouts).toBe(1);
    expect(srv.commands("get_book_snapshot").map((c) => c.params)).toEqual([{ tokenId: TOKENS[2] }]);
  });
});
