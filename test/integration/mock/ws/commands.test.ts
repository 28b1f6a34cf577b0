import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { vaultOf } from "../../../../src/mock/vault.js";
import {
  connect,
  KEYS,
  MM_WALLET,
  type Mock,
  OTHER_WALLET,
  place,
  startMock,
  type TestSocket,
} from "./helpers.js";

let mock: Mock;
let token: string;
let marketId: string;
beforeAll(async () => {
  mock = await startMock();
  const m = mock.scenario.markets[0];
  if (m === undefined) throw new Error("scenario has no market");
  token = m.yesTokenId;
  marketId = m.id;
});
afterAll(async () => {
  await mock.close();
});

const open = (): Promise<TestSocket> => connect(`${mock.wsUrl}/ws/market`, { "X-Api-Key": KEYS.full });

describe("command correlation", () => {
  it("answers each command with its own id, string or number, in order", async () => {
    const s = await open();
    s.sendRaw(JSON.stringify({ id: 7, cmd: "ping" }));
    s.sendRaw(JSON.stringify({ id: "a", cmd: "list_subscriptions" }));
    s.sendRaw(
      JSON.stringify({
        id: "b",
        cmd: "subscribe",
        params: { subscriptions: [{ channel: "token_book", ids: [token] }] },
      }),
    );
    s.sendRaw(JSON.stringify({ id: 8, cmd: "nope" }));
    const pong = await s.take((f) => f.id === 7);
    expect(pong).toEqual({ id: 7, type: "pong", serverTs: mock.clock.now() });
    expect(await s.take((f) => f.id === "a")).toEqual({ id: "a", type: "subscriptions", subscriptions: [] });
    expect((await s.take((f) => f.id === "b" && f.sid === undefined)).type).toBe("subscribed");
    expect(await s.take((f) => f.id === 8)).toEqual({
      id: 8,
      type: "error",
      cmd: "nope",
      code: "invalid_params",
      message: 'unknown command "nope"',
    });
    const responses = s.frames.filter((f) => f.data === undefined).map((f) => f.id);
    expect(responses).toEqual([7, "a", "b", 8]);
    s.close();
  });
});

describe("malformed frames get an invalid_params error, never a crash", () => {
  const cases: { name: string; raw: string; id: unknown }[] = [
    { name: "not JSON", raw: "{nope", id: null },
    { name: "a JSON array", raw: "[1,2]", id: null },
    { name: "a JSON string", raw: '"ping"', id: null },
    { name: "no cmd", raw: JSON.stringify({ id: 3 }), id: 3 },
    { name: "cmd not a string", raw: JSON.stringify({ id: 4, cmd: 5 }), id: 4 },
    { name: "params not an object", raw: JSON.stringify({ id: 5, cmd: "subscribe", params: [1] }), id: 5 },
    {
      name: "subscribe without subscriptions",
      raw: JSON.stringify({ id: 6, cmd: "subscribe", params: {} }),
      id: 6,
    },
    {
      name: "subscriptions not an array",
      raw: JSON.stringify({ id: 9, cmd: "subscribe", params: { subscriptions: { channel: "token_book" } } }),
      id: 9,
    },
  ];
  it.each(cases)("$name", async (c) => {
    const s = await open();
    s.sendRaw(c.raw);
    const err = await s.take((f) => f.type === "error");
    expect(err).toMatchObject({ id: c.id, type: "error", code: "invalid_params" });
    expect(typeof err.message).toBe("string");
    await s.barrier();
    s.close();
  });
});

describe("subscription management", () => {
  it("list_subscriptions and unsubscribe (by sid and by sids), all or nothing", async () => {
    const s = await open();
    await s.command("subscribe", {
      subscriptions: [
        { channel: "token_trade_matches", ids: [token] },
        { channel: "token_ohlc", ids: [token] },
        { channel: "system", ids: ["platform_status"] },
      ],
    });
    expect((await s.command("list_subscriptions")).subscriptions).toEqual([
      { sid: 1, channel: "token_trade_matches", ids: [token] },
      { sid: 2, channel: "token_ohlc", ids: [token] },
      { sid: 3, channel: "system", ids: ["platform_status"] },
    ]);
    expect(await s.command("unsubscribe", { sids: [1, 99] })).toMatchObject({
      type: "error",
      code: "invalid_params",
    });
    expect((await s.command("list_subscriptions")).subscriptions).toHaveLength(3);
    expect(await s.command("unsubscribe", { sid: 2 })).toMatchObject({ type: "unsubscribed", sids: [2] });
    expect(await s.command("unsubscribe", { sids: [1, 3] })).toMatchObject({
      type: "unsubscribed",
      sids: [1, 3],
    });
    expect((await s.command("list_subscriptions")).subscriptions).toEqual([]);
    expect(await s.command("unsubscribe", {})).toMatchObject({ type: "error", code: "invalid_params" });
    s.close();
  });

  it("update_subscription adds and removes ids; added token_book ids get their snapshot", async () => {
    const s = await open();
    const other = mock.scenario.markets[0]?.noTokenId ?? "";
    const sub = await s.subscribe("token_book", [token]);
    const sid = sub.accepted[0].sid;
    await s.take((f) => f.type === "book_snapshot" && f.id === token);
    const r = await s.command("update_subscription", { sid, add_ids: [other, token], remove_ids: [] });
    expect(r).toEqual({
      id: r.id,
      type: "subscription_updated",
      sid,
      channel: "token_book",
      ids: [token, other],
      added: [other],
      removed: [],
    });
    const snap = await s.take((f) => f.type === "book_snapshot" && f.id === other);
    expect(snap.sid).toBe(sid);
    const rm = await s.command("update_subscription", { sid, remove_ids: [token] });
    expect(rm).toMatchObject({ ids: [other], added: [], removed: [token] });
    place(mock.ctx, { wallet: MM_WALLET, marketId, side: "buy", price: "0.31", qty: "3" });
    await s.barrier();
    expect(s.frames.filter((f) => f.type === "book_delta" && f.id === token)).toEqual([]);
    s.close();
  });

  it("update_subscription errors: unknown sid, wallet-scoped channel, nothing to do, bad ids, foreign vault", async () => {
    const s = await open();
    const sid = (await s.subscribe("token_trade_matches", [token])).accepted[0].sid;
    const bad = async (params: unknown, code: string) =>
      expect(await s.command("update_subscription", params)).toMatchObject({
        type: "error",
        cmd: "update_subscription",
        code,
      });
    await bad({ sid: 42, add_ids: [token] }, "invalid_params");
    await bad({ sid }, "invalid_params");
    await bad({ sid, add_ids: ["x1"] }, "invalid_params");
    await bad({ sid, add_ids: "1" }, "invalid_params");
    await bad({ sid, remove_ids: [1] }, "invalid_params");
    const u = await connect(`${mock.wsUrl}/ws/user`, { "X-Api-Key": KEYS.full });
    const orders = (await u.subscribe("user_orders")).accepted[0].sid;
    expect(await u.command("update_subscription", { sid: orders, add_ids: [MM_WALLET] })).toMatchObject({
      type: "error",
      code: "invalid_params",
    });
    const vault = (await u.subscribe("vault_positions", [vaultOf(MM_WALLET)])).accepted[0].sid;
    expect(
      await u.command("update_subscription", { sid: vault, add_ids: [vaultOf(OTHER_WALLET)] }),
    ).toMatchObject({
      type: "error",
      code: "forbidden",
    });
    s.close();
    u.close();
  });
});

describe("get_book_snapshot", () => {
  it("refreshes a subscribed book without unsubscribing: ack, then book_snapshot on the same sid", async () => {
    const s = await open();
    const sid = (await s.subscribe("token_book", [token])).accepted[0].sid;
    await s.take((f) => f.type === "book_snapshot");
    place(mock.ctx, { wallet: MM_WALLET, marketId, side: "buy", price: "0.32", qty: "4" });
    const ack = await s.command("get_book_snapshot", { tokenId: token });
    expect(ack).toEqual({ id: ack.id, type: "book_snapshot_requested", sid, tokenId: token });
    const snap = await s.take((f) => f.type === "book_snapshot");
    expect(snap.sid).toBe(sid);
    expect(snap.data.bids).toContainEqual({ price: "0.32", size: "4" });
    expect((await s.command("list_subscriptions")).subscriptions).toHaveLength(1);
    s.close();
  });

  it("book_snapshot_failed for an unknown (well-formed) token; error when the token is not subscribed", async () => {
    const s = await open();
    const sub = await s.subscribe("token_book", ["42"]);
    const failed = await s.take((f) => f.type === "book_snapshot_failed");
    expect(failed).toEqual({
      type: "book_snapshot_failed",
      sid: sub.accepted[0].sid,
      channel: "token_book",
      id: "42",
      data: { tokenId: "42", reason: "unknown_token", tsMs: mock.clock.now() },
    });
    await s.command("get_book_snapshot", { tokenId: "42" });
    await s.take((f) => f.type === "book_snapshot_failed");
    expect(await s.command("get_book_snapshot", { tokenId: token })).toMatchObject({
      type: "error",
      code: "invalid_params",
    });
    expect(await s.command("get_book_snapshot", {})).toMatchObject({ type: "error", code: "invalid_params" });
    s.close();
  });
});
