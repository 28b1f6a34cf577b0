import { describe, expect, it } from "vitest";
import { until } from "./harness.js";
import { politeAnswer, RawServer } from "./raw-server.js";
import { type FeedOn, feedSlots, run, snapshotFrame } from "./sim-feed.js";

/*
 * Connection liveness is judged per /ws/market link. Caps of one id per subscription and one
 * subscription per connection put book A on link 0 and book B on link 1. It used to be
 * tracker-wide: a pong on link 0 kept link 1's books synced while link 1 was silent (quoted on
 * stale prices until link 1's own watchdog dropped it), and link 0 coming back brought link 1's
 * `connection_silent` books back while link 1 was still silent.
 */

const A = "1001";
const B = "1002";
const slots = feedSlots();

/**
 * A and B synced, on links 0 and 1 of a server that answers no ping on the connections in
 * `mute`. The links' own limits (command timeout, silence watchdog) are far away, so only the
 * tracker's liveness timeout (10 s) can tell a silent link.
 */
async function twoLinks(mute: Set<number>): Promise<FeedOn & { srv: RawServer }> {
  const polite = politeAnswer();
  const srv = await new RawServer((c, conn) =>
    c.cmd === "ping" && mute.has(conn.n) ? undefined : polite(c, conn),
  ).listen();
  const on = slots.feedOn(srv, {
    limits: { maxIdsPerSubscription: 1, maxSubscriptionsPerConnection: 1 },
    timing: { pingIntervalMs: 2_000, commandTimeoutMs: 600_000, silenceTimeoutMs: 600_000 },
    // Only liveness judges: no book has enough samples for a rate verdict.
    tracker: { stall: { enabled: true, livenessTimeoutMs: 10_000, checkEveryMs: 1_000, minSamples: 1_000 } },
  });
  await on.feed.start();
  await on.feed.subscribeBooks([A, B]);
  expect(on.client.linkStates()).toEqual(["open", "open"]);
  expect([on.client.idsOn(0, "token_book"), on.client.idsOn(1, "token_book")]).toEqual([[A], [B]]);
  srv.conns[0]?.send(snapshotFrame(A, 1, 1));
  srv.conns[1]?.send(snapshotFrame(B, 1, 2));
  await until(() => [A, B].every((t) => on.feed.tracker.state(t)?.status === "synced"), "A and B synced");
  return { ...on, srv };
}

describe("connection liveness per /ws/market link", () => {
  it("pongs on link 0 do not keep link 1's books synced while link 1 is silent", async () => {
    const mute = new Set([1]);
    const { clock, client, feed } = await twoLinks(mute);
    await run(clock, 15_000);
    expect(client.counters.pongs).toBeGreaterThan(0);
    expect(feed.tracker.state(A)).toMatchObject({ status: "synced", quotable: true });
    expect(feed.tracker.state(B)).toMatchObject({
      status: "stale",
      reason: "connection_silent",
      quotable: false,
    });
    // Link 1 answers again: its next pong brings B back, without a snapshot.
    mute.delete(1);
    await run(clock, 3_000);
    expect(feed.tracker.state(B)).toMatchObject({ status: "synced", reason: "connection_alive" });
  });

  it("link 0 coming back does not revive link 1's connection_silent books", async () => {
    const mute = new Set([0, 1]);
    const { clock, client, feed, srv } = await twoLinks(mute);
    await run(clock, 15_000);
    for (const t of [A, B]) expect(feed.tracker.state(t)).toMatchObject({ reason: "connection_silent" });
    // Link 0 reconnects (a new connection, n = 2, that answers pings) and resubscribes A.
    client.dropLink(0);
    await until(() => srv.conns.length === 3 && client.linkStates()[0] === "open", "link 0 back", {
      clock,
      advanceMs: 250,
    });
    await until(() => srv.commands("subscribe").length === 3, "A resubscribed");
    srv.conns[2]?.send(snapshotFrame(A, 2, 3));
    await run(clock, 6_000);
    expect(feed.tracker.state(A)).toMatchObject({ status: "synced", quotable: true });
    expect(feed.tracker.state(B)).toMatchObject({
      status: "stale",
      reason: "connection_silent",
      quotable: false,
    });
  });
});
