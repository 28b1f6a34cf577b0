import { afterEach, describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import { GatewayClient } from "../../../src/gateway/client.js";
import { MarketDataFeed } from "../../../src/gateway/market-data-feed.js";
import type { SubscribeOutcome } from "../../../src/gateway/waiters.js";
import { until } from "./harness.js";
import { politeAnswer, type RawConn, RawServer } from "./raw-server.js";

/*
 * A subscribe() waits for the server's verdict on each of its ids. An id un-wanted before its
 * subscribe went out (retireBooks of a market that settled while its books' link was still
 * connecting, or any unsubscribe in that window) is never sent, so no verdict comes: the call
 * used to wait for ever — and Feeds.start with it, which awaits subscribeBooks. Now such an id is
 * settled as `withdrawn` when it is un-wanted, and the call resolves with the others' verdicts.
 */

const CONNECTED = { gateway: "market", authMethod: "api_key", protocolVersion: 2 };
let srv: RawServer | undefined;
let feed: MarketDataFeed | undefined;
afterEach(async () => {
  await feed?.close();
  await srv?.close();
  feed = undefined;
  srv = undefined;
});

/** Settled within `ms` of real time, or undefined. */
async function within<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((r) => {
    timer = setTimeout(() => r(undefined), ms);
  });
  try {
    return await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** A feed whose client packs 2 ids per subscription, 1 subscription per connection. */
function tightFeed(url: string): MarketDataFeed {
  const clock = new SimClock(1_000_000);
  const client = new GatewayClient({
    url,
    gateway: "market",
    apiKey: "k",
    clock,
    random: () => 0.5,
    limits: { maxIdsPerSubscription: 2, maxSubscriptionsPerConnection: 1 },
  });
  return new MarketDataFeed({ client, clock, tracker: { stall: { enabled: false } } });
}

describe("subscribe() of an id un-wanted before its subscribe was sent", () => {
  it("settles when a spill-over link that was still connecting opens without it", async () => {
    // Connection 0 opens at once; connection 1 (the spill-over link) only when released.
    const held: RawConn[] = [];
    srv = await new RawServer(politeAnswer(), {
      connected: false,
      onConnection: (c) => {
        if (c.n === 0) c.send({ type: "connected", data: CONNECTED });
        else held.push(c);
      },
    }).listen();
    feed = tightFeed(srv.url);
    const client = feed.client;
    await feed.start();

    const subscribed = feed.subscribeBooks(["1001", "1002", "1003", "1004"]);
    await until(() => held.length === 1, "the spill-over connection");
    expect(client.linkStates()).toEqual(["open", "connecting"]);
    await feed.retireBooks(["1004"]); // its market settled: link 1 has not sent anything yet

    held[0]?.send({ type: "connected", data: CONNECTED });
    const out = await within(subscribed, 2_000);
    expect(out).toEqual<SubscribeOutcome>({
      accepted: ["1001", "1002", "1003"],
      rejected: [],
      withdrawn: ["1004"],
    });
    const sent = srv.commands("subscribe").flatMap((c) => c.params?.subscriptions as unknown[]);
    expect(sent).toEqual([
      { channel: "token_book", ids: ["1001", "1002"] },
      { channel: "token_book", ids: ["1003"] },
    ]);
  });

  it("settles when every id of a subscription is un-wanted before its pass ran (one open link)", async () => {
    srv = await new RawServer(politeAnswer()).listen();
    feed = tightFeed(srv.url);
    const client = feed.client;
    await feed.start();

    // subscribe() places the ids and queues the link's pass; the unsubscribe comes before it runs.
    const subscribed = client.subscribe("token_book", ["2001", "2002"]);
    const unsubscribed = client.unsubscribe("token_book", ["2001", "2002"]);
    const out = await within(subscribed, 2_000);
    await unsubscribed;
    expect(out).toEqual<SubscribeOutcome>({ accepted: [], rejected: [], withdrawn: ["2001", "2002"] });
    expect(srv.commands("subscribe")).toEqual([]);
  });

  it("an id withdrawn and subscribed again waits for the new verdict", async () => {
    srv = await new RawServer(politeAnswer()).listen();
    feed = tightFeed(srv.url);
    const client = feed.client;
    await feed.start();

    const first = client.subscribe("token_book", ["3001"]);
    void client.unsubscribe("token_book", ["3001"]);
    const again = client.subscribe("token_book", ["3001"]);
    expect(await within(first, 2_000)).toEqual({ accepted: [], rejected: [], withdrawn: ["3001"] });
    expect(await within(again, 2_000)).toEqual({ accepted: ["3001"], rejected: [] });
    expect(client.idsOn(0, "token_book")).toEqual(["3001"]);
  });
});
