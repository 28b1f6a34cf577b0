import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MockAdmin } from "../../../../src/mock/faults/admin.js";
import type { MarketScenario } from "../../../../src/mock/scenario/types.js";
import { connect, KEYS, MM_WALLET, type Mock, place, startMock, type TestSocket } from "./helpers.js";

let mock: Mock;
let admin: MockAdmin;
let a: MarketScenario;
let b: MarketScenario;
let s: TestSocket;
beforeEach(async () => {
  mock = await startMock();
  admin = new MockAdmin(mock.ctx, mock.gateways);
  const [first, second] = mock.scenario.markets;
  if (first === undefined || second === undefined) throw new Error("scenario needs two markets");
  a = first;
  b = second;
  s = await connect(`${mock.wsUrl}/ws/market`, { "X-Api-Key": KEYS.full });
});
afterEach(async () => {
  await mock.close();
});

const snapshotsOf = (sock: TestSocket): string[] => sock.ofType("book_snapshot").map((f) => f.id as string);

describe("fault: refuse-book (a token_book subscription refused with a spec code)", () => {
  it("a subscribe rejects only the refused ids, in the spec's rejection shape, and accepts the rest of the request", async () => {
    admin.refuseBooks([a.noTokenId]);
    const r = await s.command("subscribe", {
      subscriptions: [
        { channel: "token_book", ids: [a.yesTokenId, a.noTokenId, b.yesTokenId] },
        { channel: "token_trade_matches", ids: [a.noTokenId] }, // the fault is token_book's only
      ],
    });
    expect(r.type).toBe("subscribed");
    expect(r.accepted).toEqual([
      { sid: expect.any(Number), channel: "token_book", ids: [a.yesTokenId, b.yesTokenId] },
      { sid: expect.any(Number), channel: "token_trade_matches", ids: [a.noTokenId] },
    ]);
    expect(r.rejected).toEqual([
      { channel: "token_book", ids: [a.noTokenId], code: "invalid_params", message: expect.any(String) },
    ]);
    await s.barrier();
    // Snapshots follow for the accepted ids only; the refused token's book is not fed.
    expect(snapshotsOf(s).sort()).toEqual([a.yesTokenId, b.yesTokenId].sort());
    place(mock.ctx, {
      wallet: MM_WALLET,
      marketId: a.id,
      outcome: "NO",
      side: "buy",
      price: "0.3",
      qty: "1",
    });
    await s.barrier();
    expect(s.frames.filter((f) => f.channel === "token_book" && f.id === a.noTokenId)).toEqual([]);
  });

  it("an entry whose ids are all refused is rejected per code and holds no subscription", async () => {
    admin.refuseBooks([a.yesTokenId], "subscription_cap_exceeded");
    admin.refuseBooks([a.noTokenId]);
    const r = await s.subscribe("token_book", [a.yesTokenId, a.noTokenId]);
    expect(r.accepted).toEqual([]);
    expect(r.rejected).toEqual([
      {
        channel: "token_book",
        ids: [a.yesTokenId],
        code: "subscription_cap_exceeded",
        message: expect.any(String),
      },
      { channel: "token_book", ids: [a.noTokenId], code: "invalid_params", message: expect.any(String) },
    ]);
    expect((await s.command("list_subscriptions")).subscriptions).toEqual([]);
  });

  it("an update_subscription adding a refused id fails whole with the code; others are added", async () => {
    const r = await s.subscribe("token_book", [a.yesTokenId]);
    const sid = r.accepted[0].sid as number;
    admin.refuseBooks([a.noTokenId], "invalid_params");
    const refused = await s.command("update_subscription", { sid, add_ids: [b.yesTokenId, a.noTokenId] });
    expect(refused).toMatchObject({ type: "error", cmd: "update_subscription", code: "invalid_params" });
    const added = await s.command("update_subscription", { sid, add_ids: [b.yesTokenId] });
    expect(added).toMatchObject({ type: "subscription_updated", ids: [a.yesTokenId, b.yesTokenId] });
  });

  it("a subscription held before the fault keeps its feed; turned off, the token is accepted again", async () => {
    await s.subscribe("token_book", [a.yesTokenId]);
    await s.take((f) => f.type === "book_snapshot");
    admin.refuseBooks([a.yesTokenId]);
    place(mock.ctx, { wallet: MM_WALLET, marketId: a.id, side: "buy", price: "0.40", qty: "1" });
    await s.take((f) => f.type === "book_delta" && f.id === a.yesTokenId);
    const other = await connect(`${mock.wsUrl}/ws/market`, { "X-Api-Key": KEYS.full });
    expect((await other.subscribe("token_book", [a.yesTokenId])).rejected).toHaveLength(1);
    expect(admin.refuseBooks([a.yesTokenId], undefined, false)).toEqual({ refusedBooks: {} });
    const again = await other.subscribe("token_book", [a.yesTokenId]);
    expect([again.accepted.length, again.rejected]).toEqual([1, []]);
  });

  it("reset lifts the refusal", async () => {
    admin.refuseBooks([a.yesTokenId]);
    expect(admin.state().faults.feed.refusedBooks).toEqual({ [a.yesTokenId]: "invalid_params" });
    admin.reset();
    expect(admin.state().faults.feed.refusedBooks).toEqual({});
    expect((await s.subscribe("token_book", [a.yesTokenId])).rejected).toEqual([]);
  });
});
