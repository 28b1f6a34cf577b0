import { describe, expect, it } from "vitest";
import {
  ConditionFollower,
  type ConditionSubscriber,
} from "../../../../src/gateway/record/condition-follower.js";
import type { ChannelEvent } from "../../../../src/gateway/schema/events.js";

const C1 = `0x${"AB".repeat(32)}`;
const C2 = `0x${"cd".repeat(32)}`;

/** A client that records each subscribe and accepts every id. */
class FakeClient implements ConditionSubscriber {
  readonly calls: string[][] = [];
  async subscribe(_channel: "condition_lifecycle", ids: readonly string[]) {
    this.calls.push([...ids]);
    return { accepted: [...ids], rejected: [] };
  }
}

const book = (tokenId: string, conditionId: string | undefined): ChannelEvent =>
  ({ type: "book_snapshot", tokenId, conditionId, tsMs: 1, seq: 1, bids: [], asks: [] }) as ChannelEvent;

describe("ConditionFollower", () => {
  it("subscribes each recorded token's market once, the conditions learned together in one call", async () => {
    const client = new FakeClient();
    const f = new ConditionFollower(client, ["1", "2", "3"]);
    f.see(book("1", C1));
    f.see(book("2", C1.toLowerCase())); // the other outcome of the same market
    f.see(book("3", C2));
    await Promise.resolve();
    expect(client.calls).toEqual([[C1.toLowerCase(), C2]]);
    f.see(book("1", C1));
    f.see({ type: "trade_matched", tokenId: "3", conditionId: C2 } as ChannelEvent);
    await new Promise((r) => setTimeout(r, 0));
    expect(client.calls).toHaveLength(1);
    expect(f.conditions).toEqual([C1.toLowerCase(), C2]);
    expect(f.accepted).toBe(2);
  });

  it("ignores other tokens, events without a condition, and ids that are not bytes32 hex", async () => {
    const client = new FakeClient();
    const f = new ConditionFollower(client, ["1"]);
    f.see(book("9", C1));
    f.see(book("1", undefined));
    f.see(book("1", "0xnothex"));
    f.see({ type: "platform_status", frozen: true } as ChannelEvent);
    await new Promise((r) => setTimeout(r, 0));
    expect(client.calls).toEqual([]);
    expect(f.conditions).toEqual([]);
  });
});
