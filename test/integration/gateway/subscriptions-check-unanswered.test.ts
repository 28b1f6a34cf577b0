import { describe, expect, it } from "vitest";
import { settle, until } from "./harness.js";
import { politeAnswer, RawServer, refusingSnapshots } from "./raw-server.js";
import { feedSlots, snapshotFrame } from "./sim-feed.js";

/*
 * README (Assumptions, "a subscription the server drops") and sync.ts say "an unreadable or
 * unanswered list changes nothing". But list_subscriptions was an awaited command, and one left
 * unanswered for commandTimeoutMs dropped the connection: one refused get_book_snapshot (here
 * invalid_params, though the server holds the book) on a server that does not answer list_subscriptions (the spec
 * shows no payload for it) killed the connection and resynced every book on it (found by review
 * s20 rsubs). list_subscriptions is now reply-optional, like get_book_snapshot: unanswered, it
 * times out alone.
 */

const A = "111";
const B = "222";
const COMMAND_TIMEOUT_MS = 2_000;
const slots = feedSlots();

describe("an unanswered list_subscriptions after a refused snapshot", () => {
  it("changes nothing: the connection and the other book stay up", async () => {
    const polite = politeAnswer();
    const answer = refusingSnapshots(polite, undefined);
    const srv = await new RawServer(answer).listen();
    const timing = {
      commandTimeoutMs: COMMAND_TIMEOUT_MS,
      pingIntervalMs: 60_000,
      silenceTimeoutMs: 120_000,
    };
    const { clock, client, feed: f } = slots.feedOn(srv, { timing, tracker: { snapshotTimeoutMs: 5_000 } });
    await f.start();
    await f.subscribeBooks([A, B]);
    srv.conns[0]?.send(snapshotFrame(A, 1, 1, "10"));
    srv.conns[0]?.send(snapshotFrame(B, 1, 1, "10"));
    await client.ping();
    expect(f.tracker.state(B)?.quotable).toBe(true);

    // A gap on A: get_book_snapshot, refused; the client asks list_subscriptions, never answered.
    srv.conns[0]?.send({
      type: "book_delta",
      sid: 1,
      channel: "token_book",
      id: A,
      data: { tokenId: A, seq: 6, prevSeq: 5, tsMs: 2_000, changes: [] },
    });
    await until(() => srv.commands("list_subscriptions").length === 1, "the subscriptions check");
    for (let i = 0; i < 4; i++) {
      clock.advanceBy(COMMAND_TIMEOUT_MS / 2);
      await settle(5);
    }
    expect(client.counters).toMatchObject({ disconnects: 0 });
    expect(srv.conns).toHaveLength(1);
    expect(f.tracker.state(B)).toMatchObject({ status: "synced", quotable: true });
  });
});
