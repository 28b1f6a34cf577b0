import { afterEach, describe, expect, it } from "vitest";
import type { Feeds } from "../../../src/app/feeds.js";
import type { CollectingStream } from "../../support/collecting-stream.js";
import { bookToken, type FeedsRig, feedsOn, marketM1 } from "./feeds-rig.js";
import { settle, until } from "./harness.js";
import { type Answer, politeAnswer, RawServer } from "./raw-server.js";
import { snapshotFrame } from "./sim-feed.js";

/*
 * After Feeds.start(), a subscription refused on the resubscribe that follows a reconnect used to
 * show only in a counter: for user_fills nobody listened (the bot traded on without its fill
 * stream, silently), for token_book the book was untracked without a word. Now each refusal after
 * start is an error log naming the gateway, channel, code and ids; a lost user_fills (or
 * user_orders) subscription makes the engine reconcile at once and after each failed retry, and
 * once more when the stream is back (fills of the gap come from the REST backfill).
 */

const TOKEN = "4242";
const CONDITION = `0x${"ab".repeat(32)}`;
let server: RawServer | undefined;
let feeds: Feeds | undefined;
afterEach(async () => {
  await feeds?.close();
  await server?.close();
  feeds = undefined;
  server = undefined;
});

const MARKETS = marketM1([bookToken(TOKEN, "YES", 0, CONDITION)]);

/** politeAnswer, except subscribes of `channel` on connection `n` refused with `code` (`times` times). */
function refusing(channel: string, n: number, code: string, times: number): Answer {
  const polite = politeAnswer();
  let left = times;
  return (c, conn) => {
    const subs = (c.params?.subscriptions ?? []) as { channel: string; ids?: string[] }[];
    if (c.cmd === "subscribe" && conn.n === n && subs[0]?.channel === channel && left > 0) {
      left--;
      return {
        type: "subscribed",
        accepted: [],
        rejected: [{ channel, ids: subs[0]?.ids ?? [], code, message: "refused" }],
      };
    }
    return polite(c, conn);
  };
}

interface Started extends FeedsRig {
  readonly srv: RawServer;
}

async function started(answer: Answer): Promise<Started> {
  const srv = await new RawServer(answer).listen();
  server = srv;
  const rig = feedsOn(srv, MARKETS);
  feeds = rig.f;
  await rig.f.start();
  return { srv, ...rig };
}

const errors = (sink: CollectingStream) => sink.records().filter((r) => r.level === 50);

describe("Feeds: a subscription refused after start", () => {
  it("user_fills refused on the resubscribe with a transient code: error log, reconcile now and per retry, again once back", async () => {
    // conn 0 = /ws/user (connected first), conn 1 = /ws/market, conn 2 = whichever reconnects.
    const s = await started(refusing("user_fills", 2, "internal_error", 2));
    expect(s.engine.reconciles).toBe(0);
    s.f.user.dropLink(0);
    await until(
      () => s.f.user.counters.subscriptionRefusals["user_fills:internal_error"] === 1,
      "the refusal",
      {
        clock: s.clock,
        advanceMs: 100,
      },
    );
    await settle(10);
    const [err] = errors(s.sink);
    expect(err).toMatchObject({ gateway: "user", channel: "user_fills", code: "internal_error" });
    expect(err?.retryInMs).toEqual(expect.any(Number));
    expect(String(err?.msg)).toMatch(/user_fills/);
    expect(s.engine.reconciles).toBe(2); // the reconnect's, and the lost stream's

    await until(
      () => s.f.user.counters.subscriptionRefusals["user_fills:internal_error"] === 2,
      "the 2nd refusal",
      {
        clock: s.clock,
        advanceMs: 100,
      },
    );
    await settle(10);
    expect(s.engine.reconciles).toBe(3); // one per failed retry while the stream is lost
    await until(
      () => s.sink.records().some((r) => r.level === 40 && /restored/.test(String(r.msg))),
      "the restored stream",
      { clock: s.clock, advanceMs: 100 },
    );
    expect(s.engine.reconciles).toBe(4); // fills of the gap: the REST backfill
    expect(s.f.user.counters.subscriptionRefusals).toEqual({ "user_fills:internal_error": 2 });
  });

  it("user_fills refused for good (api_key_scope_missing): error log saying so, and a reconcile", async () => {
    const s = await started(refusing("user_fills", 2, "api_key_scope_missing", 1));
    s.f.user.dropLink(0);
    await until(() => errors(s.sink).length === 1, "the error log", { clock: s.clock, advanceMs: 100 });
    await settle(10);
    const [err] = errors(s.sink);
    expect(err).toMatchObject({ gateway: "user", channel: "user_fills", code: "api_key_scope_missing" });
    expect(err?.retryInMs).toBeUndefined();
    expect(String(err?.msg)).toMatch(/periodic reconcile/);
    expect(s.engine.reconciles).toBe(2);
  });

  it("token_book refused for good: error log naming the token; the engine's last state of it is not quotable", async () => {
    const s = await started(refusing("token_book", 2, "forbidden", 1));
    // The book becomes quotable on link 1's snapshot.
    s.srv.conns[1]?.send(snapshotFrame(TOKEN, 1));
    await s.f.market.client.ping();
    expect(s.engine.states.at(-1)).toMatchObject({ tokenId: TOKEN, quotable: true });
    s.f.market.client.dropLink(0);
    await until(() => errors(s.sink).length === 1, "the error log", { clock: s.clock, advanceMs: 100 });
    expect(errors(s.sink)[0]).toMatchObject({
      gateway: "market",
      channel: "token_book",
      code: "forbidden",
      ids: [TOKEN],
    });
    expect(s.engine.states.at(-1)).toMatchObject({ tokenId: TOKEN, quotable: false });
    expect(s.f.market.tracker.state(TOKEN)).toBeUndefined();
  });
});

describe("Feeds: a book subscription refused at start", () => {
  it("for good (forbidden): the warn log names the token (MmBookRefused points here), and it is counted refused", async () => {
    // conn 1 = /ws/market's first connection: its token_book subscribe is refused.
    const s = await started(refusing("token_book", 1, "forbidden", 1));
    const warn = s.sink.records().find((r) => r.level === 40 && /subscription refused/.test(String(r.msg)));
    expect(warn).toMatchObject({ channel: "token_book", code: "forbidden", ids: [TOKEN], idCount: 1 });
    expect(s.f.market.tracker.state(TOKEN)).toBeUndefined();
    expect(s.f.market.tracker.refused()).toEqual([TOKEN]);
  });
});
