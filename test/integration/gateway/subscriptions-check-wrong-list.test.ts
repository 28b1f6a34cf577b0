import { describe, expect, it } from "vitest";
import { until } from "./harness.js";
import { politeAnswer, RawServer, refusingSnapshots } from "./raw-server.js";
import { feedSlots } from "./sim-feed.js";

/*
 * When the subscriptions check's list did not show a sid, the client subscribed its ids afresh
 * without unsubscribing it: a server that answers list_subscriptions wrongly (an empty list, a list
 * scoped otherwise) while it still holds our sid then held each token under two sids — duplicate
 * frames, and the connection's subscription count growing toward the 256 cap at each later check
 * (found by review s20 rsubs). The old sid is now unsubscribed before the fresh subscribe. Real
 * GatewayClient against a scripted ws server on 127.0.0.1 that keeps count of what it holds.
 */

const A = "111";
const B = "222";
const slots = feedSlots();

describe("a subscriptions check answered with a wrong, empty list", () => {
  it("unsubscribes the sid it did not list before subscribing its ids again: each token under one sid", async () => {
    const polite = politeAnswer();
    // Wrong: it holds sid 1.
    const answer = refusingSnapshots(polite, { type: "subscriptions", subscriptions: [] });
    const srv = await new RawServer(answer).listen();
    const { client, feed } = slots.feedOn(srv);
    await feed.start();
    await feed.subscribeBooks([A, B]);

    expect(client.requestBookSnapshot(A)).toBe(true);
    await until(() => srv.commands("subscribe").length === 2, "the fresh subscribe");
    await client.ping();
    // The unsubscribe answered done shows the server held the sid: nothing was dropped, no repair.
    expect(client.counters.subscriptionsLost).toEqual({});
    const cmds = srv.received.map((c) => c.cmd).filter((c) => c === "subscribe" || c === "unsubscribe");
    expect(cmds).toEqual(["subscribe", "unsubscribe", "subscribe"]);
    expect(srv.commands("unsubscribe")[0]?.params).toEqual({ sid: 1 });
    // What the server really holds: one subscription, both tokens.
    const conn = srv.conns[0];
    if (conn === undefined) throw new Error("no connection");
    const truth = polite({ id: "x", cmd: "list_subscriptions", params: undefined }, conn);
    expect(truth?.subscriptions).toEqual([{ sid: 2, channel: "token_book", ids: [A, B] }]);
  });
});
