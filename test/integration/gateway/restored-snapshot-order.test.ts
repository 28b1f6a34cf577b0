import { describe, expect, it } from "vitest";
import type { RejectedIds } from "../../../src/gateway/waiters.js";
import { until } from "./harness.js";
import { politeAnswer, RawServer } from "./raw-server.js";
import { feedSlots, snapshotFrame } from "./sim-feed.js";

/*
 * A token_book subscription refused (retryable) on the resubscribe after a reconnect is retried;
 * when the retry is accepted the server sends the `subscribed` reply and, right behind it, the
 * book_snapshot (as the mock and the spec's "a book_snapshot follows every subscribe" do). Both
 * frames usually arrive in one read: ws emits them synchronously, so the snapshot is applied
 * before the promise continuation of the reply runs sync.#accepted → onRestored. The feed's
 * onRestored then calls tracker.expectSnapshot on a book that is already synced with that
 * snapshot, knocking it back to `resyncing` ("resubscribed") to wait for a snapshot that has
 * already come; it stays unquotable until the tracker's snapshot timeout + back-off + a
 * get_book_snapshot round trip.
 */

const A = "111";
const slots = feedSlots();

describe("review gateway: restored token_book and its snapshot", () => {
  it("the snapshot that follows the accepted retry leaves the book synced (not knocked back to resyncing)", async () => {
    const polite = politeAnswer();
    let refusalsLeft = 1;
    let sid = 100;
    const srv = await new RawServer((c, conn) => {
      if (c.cmd !== "subscribe") return polite(c, conn);
      const subs = (c.params?.subscriptions ?? []) as { channel: string; ids?: string[] }[];
      if (conn.n >= 1 && refusalsLeft > 0) {
        refusalsLeft--;
        return {
          type: "subscribed",
          accepted: [],
          rejected: subs.map((s) => ({
            channel: s.channel,
            ids: s.ids ?? [],
            code: "internal_error",
            message: "x",
          })),
        };
      }
      // Accepted: the reply, then the snapshot of each token at once (same tick, like the mock).
      const s = sid++;
      conn.ws.send(
        JSON.stringify({
          id: c.id,
          type: "subscribed",
          accepted: subs.map((x) => ({ sid: s, channel: x.channel, ids: x.ids ?? [] })),
          rejected: [],
        }),
      );
      for (const x of subs) for (const t of x.ids ?? []) conn.send(snapshotFrame(t, 10 + s, s));
      return undefined;
    }).listen();
    const timing = {
      pingIntervalMs: 60_000,
      silenceTimeoutMs: 120_000,
      backoff: { baseMs: 500, maxMs: 4_000 },
    };
    const { clock, client, feed: f } = slots.feedOn(srv, { timing });
    const rejected: RejectedIds[] = [];
    const restored: string[][] = [];
    client.onRejected((r) => rejected.push(r));
    client.onRestored((r) => restored.push([...r.ids]));
    await f.start();
    await f.subscribeBooks([A]);
    await client.ping();
    expect(f.tracker.state(A)).toMatchObject({ status: "synced", quotable: true });

    client.dropLink(0);
    await until(() => rejected.length === 1, "the refused resubscribe", { clock, advanceMs: 100 });
    expect(rejected[0]?.retryInMs).toBeGreaterThan(0);
    expect(f.tracker.state(A)).toMatchObject({ quotable: false });

    // The retry is accepted and its snapshot follows at once.
    await until(() => restored.length === 1, "the restored subscription", { clock, advanceMs: 100 });
    await client.ping(); // every frame the server sent has been handled
    expect(f.tracker.counters.snapshots).toBe(2);
    expect(f.tracker.state(A)).toMatchObject({ status: "synced", quotable: true });
  });
});
