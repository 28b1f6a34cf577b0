import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { vaultOf } from "../../../../src/mock/vault.js";
import {
  connect,
  type Frame,
  KEYS,
  MM_WALLET,
  type Mock,
  OTHER_WALLET,
  place,
  startMock,
} from "./helpers.js";

/**
 * One session that makes the mock emit every event type it implements on both gateways, then
 * checks the spec's envelope and payload conventions on every event frame received.
 */
let mock: Mock;
let events: Frame[] = [];
const subscribed = new Map<number, string>();

const PAYLOAD_FIELDS: Record<string, string[]> = {
  trade_matched: [
    "tokenId",
    "conditionId",
    "outcomeIndex",
    "tradeId",
    "price",
    "quantity",
    "side",
    "source",
    "tsMs",
  ],
  trade_settled: [
    "tokenId",
    "conditionId",
    "outcomeIndex",
    "orderHash",
    "txHash",
    "blockNumber",
    "price",
    "quantity",
    "side",
    "source",
    "tsMs",
  ],
  ohlc_update: [
    "tokenId",
    "conditionId",
    "outcomeIndex",
    "interval",
    "time",
    "open",
    "high",
    "low",
    "close",
    "volume",
    "isClosed",
    "tsMs",
  ],
  book_snapshot: ["tokenId", "conditionId", "outcomeIndex", "bids", "asks", "seq", "tsMs"],
  book_update: ["tokenId", "conditionId", "outcomeIndex", "seq", "prevSeq", "bids", "asks", "tsMs"],
  book_delta: ["tokenId", "conditionId", "outcomeIndex", "seq", "prevSeq", "changes", "tsMs"],
  book_snapshot_failed: ["tokenId", "reason", "tsMs"],
  market_paused: ["conditionId", "tsMs"],
  market_unpaused: ["conditionId", "tsMs"],
  market_resolved: ["conditionId", "resolution", "payouts", "tsMs"],
  market_status: ["conditionId", "status", "tsMs"],
  platform_status: ["frozen", "since", "tsMs"],
  user_fill: [
    "walletAddress",
    "side",
    "tradeId",
    "orderId",
    "clientOrderId",
    "tokenId",
    "conditionId",
    "outcomeIndex",
    "price",
    "quantity",
    "source",
    "tsMs",
  ],
  vault_position_balance_changed: [
    "vaultAddress",
    "tokenId",
    "conditionId",
    "outcomeIndex",
    "balanceAfter",
    "reason",
    "txHash",
    "blockNumber",
    "tsMs",
  ],
};
const CHANNEL_OF: Record<string, string> = {
  trade_matched: "token_trade_matches",
  trade_settled: "token_trade_settlements",
  ohlc_update: "token_ohlc",
  book_snapshot: "token_book",
  book_update: "token_book",
  book_delta: "token_book",
  book_snapshot_failed: "token_book",
  market_paused: "condition_lifecycle",
  market_unpaused: "condition_lifecycle",
  market_resolved: "condition_lifecycle",
  market_status: "condition_lifecycle",
  platform_status: "system",
  order_placed: "user_orders",
  order_cancelled: "user_orders",
  user_fill: "user_fills",
  vault_position_balance_changed: "vault_positions",
};
const DECIMAL_FIELDS = [
  "price",
  "quantity",
  "size",
  "open",
  "high",
  "low",
  "close",
  "volume",
  "balanceAfter",
  "filledQty",
  "remainingQty",
];

beforeAll(async () => {
  mock = await startMock({
    timing: { settlementDelayMs: 1_000, ohlcIntervalMs: 5_000, bookUpdateIntervalMs: 2_000 },
  });
  const m = mock.scenario.markets[0];
  if (m === undefined) throw new Error("scenario has no market");
  const market = await connect(`${mock.wsUrl}/ws/market`, { "X-Api-Key": KEYS.full });
  const user = await connect(`${mock.wsUrl}/ws/user`, { "X-Api-Key": KEYS.full });
  const r1 = await market.command("subscribe", {
    subscriptions: [
      { channel: "token_book", ids: [m.yesTokenId, "7"] },
      { channel: "token_trade_matches", ids: [m.yesTokenId] },
      { channel: "token_trade_settlements", ids: [m.yesTokenId] },
      { channel: "token_ohlc", ids: [m.yesTokenId] },
      { channel: "condition_lifecycle", ids: [m.conditionId] },
      { channel: "system", ids: ["platform_status"] },
    ],
  });
  const r2 = await user.command("subscribe", {
    subscriptions: [
      { channel: "user_orders" },
      { channel: "user_fills" },
      { channel: "vault_positions", ids: [vaultOf(MM_WALLET)] },
    ],
  });
  for (const a of [...r1.accepted, ...r2.accepted])
    subscribed.set(a.sid + (r2.accepted.includes(a) ? 1000 : 0), a.channel);
  const ask = place(mock.ctx, {
    wallet: MM_WALLET,
    marketId: m.id,
    side: "sell",
    price: "0.55",
    qty: "10",
    clientOrderId: "env-1",
  });
  place(mock.ctx, { wallet: OTHER_WALLET, marketId: m.id, side: "buy", price: "0.55", qty: "4" });
  mock.ctx.venue.cancel(MM_WALLET, ask.orderId);
  mock.ctx.venue.setMarketStatus(m.id, "PAUSED");
  mock.ctx.venue.setMarketStatus(m.id, "OPEN");
  mock.gateways.publishMarketLifecycle(m.conditionId, {
    type: "market_resolved",
    resolution: "YES",
    payouts: { "0": "1", "1": "0" },
  });
  mock.gateways.publishPlatformStatus();
  mock.clock.advanceBy(5_000); // settlement, a book_update, the closed ohlc bar
  await market.barrier();
  await user.barrier();
  events = [
    ...market.frames.filter((f) => f.data !== undefined && f.type !== "connected"),
    ...user.frames
      .filter((f) => f.data !== undefined && f.type !== "connected")
      .map((f) => ({ ...f, sid: f.sid + 1000 })),
  ];
});
afterAll(async () => {
  await mock.close();
});

describe("Events: envelope and payload conventions on every frame", () => {
  it("every event type the mock implements was produced", () => {
    const seen = new Set(events.map((f) => f.type));
    expect([...Object.keys(CHANNEL_OF)].filter((t) => !seen.has(t))).toEqual([]);
  });

  const rules: { rule: string; check: (f: Frame) => void }[] = [
    {
      rule: "envelope is {type, sid, channel, id, data}; id omitted on user_orders and user_fills",
      check: (f) => {
        const wallet = f.channel === "user_orders" || f.channel === "user_fills";
        expect(Object.keys(f).sort()).toEqual(
          (wallet ? ["type", "sid", "channel", "data"] : ["type", "sid", "channel", "id", "data"]).sort(),
        );
      },
    },
    {
      rule: "sid is the sid the subscribed response gave for that channel",
      check: (f) => expect(subscribed.get(f.sid)).toBe(f.channel),
    },
    {
      rule: "each event type arrives on its channel",
      check: (f) => expect(CHANNEL_OF[f.type]).toBe(f.channel),
    },
    {
      rule: "timestamps inside data are tsMs, integer milliseconds",
      check: (f) => expect(Number.isInteger(f.data.tsMs)).toBe(true),
    },
    {
      rule: "decimals are JSON strings",
      check: (f) => {
        const walk = (v: unknown, key: string): void => {
          if (Array.isArray(v)) for (const x of v) walk(x, key);
          else if (typeof v === "object" && v !== null) for (const [k, x] of Object.entries(v)) walk(x, k);
          else if (DECIMAL_FIELDS.includes(key)) expect(v).toMatch(/^\d+(\.\d+)?$/);
        };
        walk(f.data, "");
      },
    },
    {
      rule: "addresses and hashes are lowercase 0x-hex",
      check: (f) => {
        for (const v of Object.values(f.data))
          if (typeof v === "string" && /^0x/i.test(v)) expect(v).toBe(v.toLowerCase());
      },
    },
    {
      rule: "payload fields are the spec's (optional ones aside)",
      check: (f) => {
        const spec = PAYLOAD_FIELDS[f.type];
        if (spec !== undefined) for (const k of Object.keys(f.data)) expect(spec).toContain(k);
      },
    },
    {
      rule: "the envelope id is the data's token, condition, vault or platform_status",
      check: (f) => {
        if (f.id === undefined) return;
        const d = f.data;
        expect([
          d.tokenId,
          d.conditionId,
          d.vaultAddress,
          f.type === "platform_status" ? "platform_status" : undefined,
        ]).toContain(f.id);
      },
    },
  ];
  it.each(rules)("$rule", ({ check }) => {
    expect(events.length).toBeGreaterThan(15);
    for (const f of events) check(f);
  });
});
