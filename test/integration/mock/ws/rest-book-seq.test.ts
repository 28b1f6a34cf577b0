import { afterEach, expect, it } from "vitest";
import { SimClock } from "../../../../src/core/sim-clock.js";
import { toWei } from "../../../../src/core/wei.js";
import { buildMockContext } from "../../../../src/mock/build-context.js";
import { listenHttp } from "../../../../src/mock/http/listen.js";
import { httpRoutes } from "../../../../src/mock/http/routes/index.js";
import { defaultScenarioPath, loadScenario } from "../../../../src/mock/scenario/load.js";
import { attachGateways } from "../../../../src/mock/ws/index.js";
import { connect, KEYS, MM_WALLET } from "./helpers.js";

/**
 * GET /api/markets/{symbol}/orderbook hands out a `seq` next to the levels, which invites a
 * client to seed its book from REST and apply /ws/market book_delta frames on top (the spec's
 * book rules: every delta's prevSeq equals the previously seen seq). The WebSocket feed's seq is
 * the venue's book seq plus one for every periodic book_update (src/mock/ws/book-feed.ts), while
 * the REST answer carries the venue's bare seq: after the first book_update the two disagree for
 * the same book at the same instant, so a REST-seeded client sees a "gap" on the very next delta
 * and resyncs for ever (or, if it trusts REST, applies deltas onto the wrong base).
 */

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

it("the REST orderbook's seq is the /ws/market token_book seq of the same book at the same instant, so the next delta continues from it", async () => {
  const base = loadScenario(defaultScenarioPath());
  const scenario = { ...base, timing: { ...base.timing, bookUpdateIntervalMs: 1_000 } };
  const clock = new SimClock(Date.parse("2026-06-01T00:00:00.000Z"));
  const ctx = buildMockContext({ scenario, clock });
  const http = await listenHttp(ctx, httpRoutes(ctx));
  const gateways = attachGateways(http.server, ctx, {});
  close = async () => {
    await gateways.close();
    await http.close();
    ctx.venue.dispose();
  };
  const m = scenario.markets.find((x) => x.symbol === "ARG-WIN");
  if (m === undefined) throw new Error("no ARG-WIN");

  const s = await connect(`${http.url.replace(/^http/, "ws")}/ws/market`, { "X-Api-Key": KEYS.full });
  await s.subscribe("token_book", [m.yesTokenId]);
  await s.take((f) => f.type === "book_snapshot");
  ctx.venue.place({
    wallet: MM_WALLET,
    marketId: m.id,
    outcome: "YES",
    side: "buy",
    price: toWei("0.41"),
    quantity: toWei("3"),
  });
  await s.take((f) => f.type === "book_delta");
  clock.advanceBy(1_000); // one periodic book_update
  await s.take((f) => f.type === "book_update");

  const res = await fetch(`${http.url}/api/markets/${m.symbol}/orderbook`);
  const rest = (await res.json()) as { seq: number; bids: unknown[] };
  // A fresh WebSocket snapshot of the same book, now.
  const snap = await s.command("get_book_snapshot", { tokenId: m.yesTokenId });
  expect(snap.type).toBe("book_snapshot_requested");
  const ws = await s.take((f) => f.type === "book_snapshot");
  expect(rest.bids).toEqual(ws.data.bids);
  expect(rest.seq).toBe(ws.data.seq);

  // A client seeded from that REST answer applies the next delta: its prevSeq is the REST seq.
  ctx.venue.place({
    wallet: MM_WALLET,
    marketId: m.id,
    outcome: "YES",
    side: "buy",
    price: toWei("0.40"),
    quantity: toWei("2"),
  });
  const delta = await s.take((f) => f.type === "book_delta");
  expect(delta.data.prevSeq).toBe(rest.seq);
  // After an injected gap (skip-seq) REST still reports the seq the feed last sent.
  ctx.faults.feed.skipSeq.add(m.yesTokenId);
  ctx.venue.place({
    wallet: MM_WALLET,
    marketId: m.id,
    outcome: "YES",
    side: "buy",
    price: toWei("0.39"),
    quantity: toWei("2"),
  });
  const gapped = await s.take((f) => f.type === "book_delta");
  expect(gapped.data.prevSeq).toBe(delta.data.seq + 1);
  const after = (await (await fetch(`${http.url}/api/markets/${m.symbol}/orderbook`)).json()) as {
    seq: number;
  };
  expect(after.seq).toBe(gapped.data.seq);
  s.close();
});
