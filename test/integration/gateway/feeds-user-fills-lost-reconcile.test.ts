import { afterEach, describe, expect, it } from "vitest";
import { feedsOn, NO_MARKETS } from "./feeds-rig.js";
import { until } from "./harness.js";
import { type Answer, politeAnswer, RawServer, runClock } from "./raw-server.js";

/*
 * Review r21 (r2b) of ec5cbed/a62d265. The periodic list_subscriptions check runs on /ws/user too
 * now, so a user_fills subscription the server dropped while the socket lived is found (within a
 * minute) and subscribed afresh. But the fills matched while the server held no user_fills for us
 * were pushed to nobody, and Feeds does not reconcile on that loss (GatewayClient.onLost) nor when
 * user_fills is accepted again (#fillsCatchUp is set only by a reconnect): they reach the engine
 * only at the next periodic reconcile, a period of quoting on an inventory that misses our own
 * fills. Feeds' own contract: "A lost user_fills stream makes the engine reconcile at once … and
 * once more when it is back"; a reconnect, a refusal and a restored retry all do.
 */

let server: RawServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/**
 * A polite server that, while `dropped`, no longer holds our `channel` subscription (`sid`, read off
 * its subscribe replies while not dropped): its list_subscriptions leaves it out and its unsubscribe
 * is refused as an unknown sid; no notice, the socket lives on.
 */
function dropping(channel: "user_fills" | "user_orders"): {
  dropped: boolean;
  sid: unknown;
  readonly answer: Answer;
} {
  const polite = politeAnswer();
  const answer: Answer = (c, conn) => {
    if (srv.dropped && c.cmd === "list_subscriptions") {
      const all = polite(c, conn) as { subscriptions: { sid: unknown }[] };
      return { ...all, subscriptions: all.subscriptions.filter((s) => s.sid !== srv.sid) };
    }
    if (srv.dropped && c.cmd === "unsubscribe" && c.params?.sid === srv.sid)
      return { type: "error", code: "invalid_params", message: "unknown sid" };
    const reply = polite(c, conn) as { accepted?: { sid: unknown; channel: string }[] };
    if (c.cmd === "subscribe" && !srv.dropped)
      srv.sid = reply.accepted?.find((a) => a.channel === channel)?.sid ?? srv.sid;
    return reply;
  };
  const srv = { dropped: false, sid: undefined as unknown, answer };
  return srv;
}

describe("Feeds: a user_fills subscription the server dropped, found by the periodic check", () => {
  it("makes the engine reconcile (its fills of the gap were pushed to nobody)", async () => {
    const srv = dropping("user_fills");
    server = await new RawServer(srv.answer).listen();
    const { f, engine, clock } = feedsOn(server, NO_MARKETS);
    await f.start();
    try {
      expect(srv.sid).toBeDefined();
      const before = engine.reconciles;
      srv.dropped = true; // the server forgets user_fills; no notice, the socket lives on

      let lost = 0;
      f.user.onLost((channel) => {
        if (channel === "user_fills") lost++;
      });
      await runClock(clock, 80_000, 1_000); // a check runs within 45–75 s
      await until(() => lost > 0, "the periodic check finds user_fills lost", { clock, advanceMs: 250 });
      await runClock(clock, 2_000, 100);
      expect(f.user.counters.subscriptionsLost).toEqual({ user_fills: 1 });
      expect(engine.reconciles).toBeGreaterThan(before);
    } finally {
      await f.close();
    }
  });

  for (const channel of ["user_fills", "user_orders"] as const) {
    it(`${channel}: reconciles at the loss and once more when the server takes it back`, async () => {
      const srv = dropping(channel);
      server = await new RawServer(srv.answer).listen();
      const { f, engine, clock } = feedsOn(server, NO_MARKETS);
      await f.start();
      try {
        expect(srv.sid).toBeDefined();
        const before = engine.reconciles;
        const at = { lost: -1, back: -1 };
        f.user.onLost((ch) => {
          if (ch !== channel || at.lost >= 0) return;
          // Listeners run in the order added: Feeds' own ran first.
          at.lost = engine.reconciles;
          srv.dropped = false; // the resubscribe is held from the next check on
        });
        f.user.onAccepted((ch) => {
          if (ch === channel && at.lost >= 0 && at.back < 0) at.back = engine.reconciles;
        });
        srv.dropped = true;
        await runClock(clock, 80_000, 1_000);
        await until(() => at.back >= 0, `${channel} found lost and taken back`, { clock, advanceMs: 250 });
        expect(at.lost).toBe(before + 1);
        expect(at.back).toBe(before + 2);
        await runClock(clock, 2_000, 100);
        expect(engine.reconciles).toBe(before + 2);
      } finally {
        await f.close();
      }
    });
  }
});
