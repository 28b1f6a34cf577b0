import { describe, expect, it } from "vitest";
import { politeAnswer, RawServer } from "./raw-server.js";
import { feedSlots, run, snapshotFrame } from "./sim-feed.js";

/*
 * Books tracked while their /ws/market link is down (subscribeBooks after the link dropped:
 * Feeds.start's window between market.start() and subscribeBooks, a spill-over link still
 * connecting, any later subscribe during an outage). No subscribe can go out for them, so no
 * snapshot is coming: they are `resyncing` and parked at once, like the books of a dropped link,
 * with nothing requested or timed out (mm_book_snapshot_failures_total{kind="timeout"}) until the
 * link is back; then the resubscribe's snapshot syncs them.
 */

const TOKENS = ["1001", "1002", "1003"];
const slots = feedSlots();

describe("books tracked while their /ws/market link is down", () => {
  it("count no snapshot timeout while nothing could be asked", async () => {
    const srv = await new RawServer(politeAnswer()).listen();
    const { clock, client, feed: f } = slots.feedOn(srv);
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
    const { clock, client, feed: f } = slots.feedOn(srv);
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
    for (const t of TOKENS.slice(0, 2)) conn?.send(snapshotFrame(t, 1));
    await client.ping();
    for (const t of TOKENS.slice(0, 2)) expect(f.tracker.state(t)?.status).toBe("synced");
    // The third book's snapshot never comes: it was waited for (re-armed), so it is timed out and asked.
    await run(clock, 11_000);
    expect(f.tracker.counters.snapshotTimeouts).toBe(1);
    expect(srv.commands("get_book_snapshot").map((c) => c.params)).toEqual([{ tokenId: TOKENS[2] }]);
  });
});
