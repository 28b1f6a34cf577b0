import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { vaultOf } from "../../../../src/mock/vault.js";
import { connect, KEYS, MM_WALLET, type Mock, OTHER_WALLET, startMock, type TestSocket } from "./helpers.js";

let mock: Mock;
let market: TestSocket;
let user: TestSocket;
let userNoScope: TestSocket;
let marketNoScope: TestSocket;
let token: string;
let condition: string;

beforeAll(async () => {
  mock = await startMock();
  market = await connect(`${mock.wsUrl}/ws/market`, { "X-Api-Key": KEYS.full });
  user = await connect(`${mock.wsUrl}/ws/user`, { "X-Api-Key": KEYS.full });
  userNoScope = await connect(`${mock.wsUrl}/ws/user`, { "X-Api-Key": KEYS.marketsOnly });
  marketNoScope = await connect(`${mock.wsUrl}/ws/market`, { "X-Api-Key": KEYS.marketsOnly });
  const m = mock.scenario.markets[0];
  if (m === undefined) throw new Error("scenario has no market");
  token = m.yesTokenId;
  condition = m.conditionId;
});
afterAll(async () => {
  await mock.close();
});

const tokens = (n: number) => Array.from({ length: n }, (_, i) => String(1_000_000 + i));
const sockets = () => ({ market, user, userNoScope, marketNoScope });

describe("Subscription rejections (one row per rule of the spec's table)", () => {
  const cases: {
    rule: string;
    on: keyof ReturnType<typeof sockets>;
    sub: () => Record<string, unknown>;
    code: string;
  }[] = [
    {
      rule: "unknown channel",
      on: "market",
      sub: () => ({ channel: "token_books", ids: [token] }),
      code: "invalid_params",
    },
    { rule: "channel missing", on: "market", sub: () => ({ ids: [token] }), code: "invalid_params" },
    {
      rule: "malformed tokenId",
      on: "market",
      sub: () => ({ channel: "token_book", ids: ["12ab"] }),
      code: "invalid_params",
    },
    {
      rule: "tokenId as a number",
      on: "market",
      sub: () => ({ channel: "token_trade_matches", ids: [123] }),
      code: "invalid_params",
    },
    {
      rule: "conditionId not lowercase bytes32",
      on: "market",
      sub: () => ({ channel: "condition_lifecycle", ids: [condition.toUpperCase().replace("0X", "0x")] }),
      code: "invalid_params",
    },
    { rule: "missing ids", on: "market", sub: () => ({ channel: "token_ohlc" }), code: "invalid_params" },
    {
      rule: "empty ids",
      on: "market",
      sub: () => ({ channel: "token_book", ids: [] }),
      code: "invalid_params",
    },
    {
      rule: "ids sent on a wallet-scoped channel (user_orders)",
      on: "user",
      sub: () => ({ channel: "user_orders", ids: [MM_WALLET] }),
      code: "invalid_params",
    },
    {
      rule: "ids sent on a wallet-scoped channel (user_fills)",
      on: "user",
      sub: () => ({ channel: "user_fills", ids: ["x"] }),
      code: "invalid_params",
    },
    {
      rule: "system id other than platform_status",
      on: "market",
      sub: () => ({ channel: "system", ids: ["status"] }),
      code: "invalid_params",
    },
    {
      rule: "system ids not exactly [platform_status]",
      on: "market",
      sub: () => ({ channel: "system", ids: ["platform_status", "other"] }),
      code: "invalid_params",
    },
    {
      rule: "malformed vault id",
      on: "user",
      sub: () => ({ channel: "vault_positions", ids: ["0x1234"] }),
      code: "invalid_params",
    },
    {
      rule: "vault_positions without ids",
      on: "user",
      sub: () => ({ channel: "vault_positions" }),
      code: "invalid_params",
    },
    {
      rule: "key lacks portfolio:read: user_orders",
      on: "userNoScope",
      sub: () => ({ channel: "user_orders" }),
      code: "api_key_scope_missing",
    },
    {
      rule: "key lacks portfolio:read: user_fills",
      on: "userNoScope",
      sub: () => ({ channel: "user_fills" }),
      code: "api_key_scope_missing",
    },
    {
      rule: "key lacks portfolio:read: vault_positions",
      on: "userNoScope",
      sub: () => ({ channel: "vault_positions", ids: [vaultOf(MM_WALLET)] }),
      code: "api_key_scope_missing",
    },
    {
      rule: "private channel on /ws/market",
      on: "market",
      sub: () => ({ channel: "user_fills" }),
      code: "forbidden",
    },
    {
      rule: "private channel on /ws/market, even without the scope",
      on: "marketNoScope",
      sub: () => ({ channel: "user_orders" }),
      code: "forbidden",
    },
    {
      rule: "public channel on /ws/user",
      on: "user",
      sub: () => ({ channel: "token_book", ids: [token] }),
      code: "forbidden",
    },
    {
      rule: "vault id outside the key's grant (another wallet's vault)",
      on: "user",
      sub: () => ({ channel: "vault_positions", ids: [vaultOf(OTHER_WALLET)] }),
      code: "forbidden",
    },
    {
      rule: "the wallet itself is not its vault",
      on: "user",
      sub: () => ({ channel: "vault_positions", ids: [MM_WALLET] }),
      code: "forbidden",
    },
    {
      rule: "more than 100 ids in one subscription",
      on: "market",
      sub: () => ({ channel: "token_book", ids: tokens(101) }),
      code: "subscription_too_many_ids",
    },
  ];

  it.each(cases)("$rule → $code", async (c) => {
    const s = sockets()[c.on];
    const sub = c.sub();
    const r = await s.command("subscribe", { subscriptions: [sub] });
    expect(r.type).toBe("subscribed");
    expect(r.accepted).toEqual([]);
    expect(r.rejected).toHaveLength(1);
    expect(r.rejected[0]).toMatchObject({ channel: sub.channel ?? null, code: c.code });
    expect(r.rejected[0].ids).toEqual(sub.ids ?? []);
    expect(typeof r.rejected[0].message).toBe("string");
  });
});

describe("accepted subscriptions", () => {
  it("accepts and rejects entries of one subscribe independently, with fresh sids in order", async () => {
    const s = await connect(`${mock.wsUrl}/ws/market`, { "X-Api-Key": KEYS.full });
    const r = await s.command("subscribe", {
      subscriptions: [
        { channel: "token_trade_matches", ids: [token] },
        { channel: "nope", ids: [token] },
        { channel: "condition_lifecycle", ids: [condition] },
        { channel: "system", ids: ["platform_status"] },
        { channel: "token_ohlc", ids: tokens(100) },
      ],
    });
    expect(r.accepted).toEqual([
      { sid: 1, channel: "token_trade_matches", ids: [token] },
      { sid: 2, channel: "condition_lifecycle", ids: [condition] },
      { sid: 3, channel: "system", ids: ["platform_status"] },
      { sid: 4, channel: "token_ohlc", ids: tokens(100) },
    ]);
    expect(r.rejected.map((x: { code: string }) => x.code)).toEqual(["invalid_params"]);
    s.close();
  });

  it("wallet-scoped channels take no ids (absent or []), and the own vault in any case", async () => {
    const s = await connect(`${mock.wsUrl}/ws/user`, { "X-Api-Key": KEYS.full });
    const vault = vaultOf(MM_WALLET);
    const r = await s.command("subscribe", {
      subscriptions: [
        { channel: "user_orders" },
        { channel: "user_fills", ids: [] },
        { channel: "vault_positions", ids: [vault.toUpperCase().replace("0X", "0x")] },
      ],
    });
    expect(r.rejected).toEqual([]);
    expect(r.accepted).toEqual([
      { sid: 1, channel: "user_orders", ids: [] },
      { sid: 2, channel: "user_fills", ids: [] },
      { sid: 3, channel: "vault_positions", ids: [vault] },
    ]);
    s.close();
  });
});

describe("caps", () => {
  it("256 subscriptions per connection: the 257th is subscription_cap_exceeded", async () => {
    const s = await connect(`${mock.wsUrl}/ws/market`, { "X-Api-Key": KEYS.full });
    const many = tokens(257).map((id) => ({ channel: "token_trade_matches", ids: [id] }));
    const r = await s.command("subscribe", { subscriptions: many });
    expect(r.accepted).toHaveLength(256);
    expect(r.rejected).toHaveLength(1);
    expect(r.rejected[0]).toMatchObject({
      channel: "token_trade_matches",
      ids: [tokens(257)[256]],
      code: "subscription_cap_exceeded",
    });
    const again = await s.subscribe("system", ["platform_status"]);
    expect(again.rejected[0].code).toBe("subscription_cap_exceeded");
    const un = await s.command("unsubscribe", { sid: 1 });
    expect(un.type).toBe("unsubscribed");
    expect((await s.subscribe("system", ["platform_status"])).accepted).toHaveLength(1);
    s.close();
  });

  it("100 ids per subscription and per add_ids call", async () => {
    const s = await connect(`${mock.wsUrl}/ws/market`, { "X-Api-Key": KEYS.full });
    const r = await s.subscribe("token_trade_matches", tokens(100));
    expect(r.accepted[0].ids).toHaveLength(100);
    const sid = r.accepted[0].sid;
    const tooMany = await s.command("update_subscription", { sid, add_ids: tokens(101) });
    expect(tooMany).toMatchObject({
      type: "error",
      cmd: "update_subscription",
      code: "subscription_too_many_ids",
    });
    const overflow = await s.command("update_subscription", { sid, add_ids: ["999"] });
    expect(overflow.code).toBe("subscription_too_many_ids");
    const swap = await s.command("update_subscription", {
      sid,
      remove_ids: [tokens(1)[0]],
      add_ids: ["999"],
    });
    expect(swap).toMatchObject({
      type: "subscription_updated",
      sid,
      added: ["999"],
      removed: [tokens(1)[0]],
    });
    expect(swap.ids).toHaveLength(100);
    s.close();
  });
});
