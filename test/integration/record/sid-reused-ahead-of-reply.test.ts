import { expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import type { RecordedFrame } from "../../../src/recorded/format.js";
import { settle, until } from "../gateway/harness.js";
import type { Answer } from "../gateway/raw-server.js";
import { count, print, recordings } from "./drop-server.js";
import { readAll } from "./record-io.js";

/*
 * The recorder leaves out every push the client judges `stray_sid`: one under a sid whose orphan
 * unsubscribe went unanswered ("unproven"). A server that hands out the lowest free sid gives that
 * very number to the resubscribe that repairs the drop, and a push can come ahead of its subscribe
 * reply (README: "a book_snapshot_failed pushed ahead of a late subscribe reply"). That push is
 * ours: judged stray it was not recorded (a book's only snapshot lost), and the stray verdict
 * re-sent `unsubscribe` for the sid, which removed the fresh subscription. While a subscribe is in
 * flight the push is kept and nothing is sent; the reply decides (orphans.ts).
 */

const start = recordings();

/**
 * A server that forgot sid 1 on its own (left out of the list), answers nothing to an unsubscribe
 * of a sid it does not hold (the spec shows no reply), reuses the lowest free sid, and pushes the
 * first print of a token_trade_matches subscribe ahead of its reply.
 */
function reuseServer(clock: SimClock) {
  const held = new Map<number, { sid: number; channel: string; ids: string[] }>();
  const at: Record<string, number[]> = {};
  const unsubscribedHeld: number[] = [];
  let subscribes = 0;
  const answer: Answer = (c, conn) => {
    at[c.cmd] = [...(at[c.cmd] ?? []), clock.now()];
    switch (c.cmd) {
      case "subscribe": {
        const s = ((c.params?.subscriptions ?? []) as { channel: string; ids?: string[] }[])[0];
        let sid = 1;
        while (held.has(sid)) sid++;
        const sub = { sid, channel: s?.channel ?? "", ids: [...(s?.ids ?? [])] };
        held.set(sid, sub);
        subscribes++;
        // The resubscribe's first print goes out before its reply.
        if (subscribes === 2) conn.send(print(sid, "ahead"));
        return { type: "subscribed", accepted: [sub], rejected: [] };
      }
      case "list_subscriptions":
        return { type: "subscriptions", subscriptions: [...held.values()] };
      case "unsubscribe": {
        const sid = c.params?.sid as number;
        if (!held.has(sid)) return undefined; // nothing held: no answer
        held.delete(sid);
        unsubscribedHeld.push(sid);
        return { type: "unsubscribed", sids: [sid] };
      }
      case "ping":
        return { type: "pong", serverTs: clock.now() };
      default:
        return { type: "error", code: "invalid_params", message: "unknown command" };
    }
  };
  return { answer, at, held, unsubscribedHeld, forget: (sid: number) => void held.delete(sid) };
}

const trades = (recs: RecordedFrame[]) =>
  recs
    .map((r) => r.frame)
    .filter((f) => f.type === "trade_matched")
    .map((f) => `${String(f.sid)}:${(f.data as { tradeId: string }).tradeId}`);

async function scenario() {
  const clock = new SimClock(1_750_000_000_000);
  const s = reuseServer(clock);
  const { abort, run, conn } = await start(clock, s, ["token_trade_matches"]);
  conn().send(print(1, "before"));
  await until(() => count(s.at, "list_subscriptions") === 1, "the first check", { clock, advanceMs: 250 });
  await settle(30);
  s.forget(1); // dropped by the server on a live socket
  // The second check finds it; the orphan unsubscribe of sid 1 times out (10 s); then the resubscribe.
  await until(() => count(s.at, "subscribe") === 2, "the repair", {
    clock,
    advanceMs: 250,
    timeoutMs: 10_000,
  });
  await settle(100);
  conn().send(print(1, "after"));
  await settle(50);
  abort.abort();
  const summary = await run;
  return { s, summary, recs: await readAll(summary.files) };
}

it("records the resubscribe's print pushed ahead of its reply under a reused sid (it is ours, not a stray)", async () => {
  const { summary, recs } = await scenario();
  expect(trades(recs)).toEqual(["1:before", "1:ahead", "1:after"]);
  expect(summary.strays).toBe(0);
}, 30_000);

it("does not unsubscribe the subscription the server just gave under the reused sid", async () => {
  const { s } = await scenario();
  expect(s.unsubscribedHeld).toEqual([]);
  expect([...s.held.keys()]).toEqual([1]);
}, 30_000);
