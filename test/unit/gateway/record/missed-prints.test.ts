import { describe, expect, it } from "vitest";
import { MissedPrints } from "../../../../src/gateway/record/missed-prints.js";
import type { MarketFrame } from "../../../../src/recorded/format.js";
import { SetClock } from "../../../support/set-clock.js";

/*
 * s18 recfix: a token's trade prints lost while its connection was down are marked in the
 * recording, from the link's last frame (the socket was alive then) to its resubscribe.
 */

describe("MissedPrints", () => {
  it("opens a stretch per token of the link that went down, closes it at the token's re-accept", () => {
    const clock = new SetClock(1_000);
    const written: MarketFrame[] = [];
    const links: Record<number, string[]> = { 0: ["1", "2"], 1: ["3"] };
    const missed = new MissedPrints({
      client: { idsOn: (link, channel) => (channel === "token_trade_matches" ? (links[link] ?? []) : []) },
      clock,
      write: (f) => written.push(f) > 0,
    });
    missed.frame(0, 900);
    missed.frame(1, 950);
    clock.t = 1_200;
    missed.down(0);
    missed.down(0); // a second close of the same link moves nothing
    clock.t = 1_500;
    missed.accepted("token_book", ["1", "2"]); // books back first: the prints are not yet
    missed.accepted("token_trade_matches", ["1", "3"]); // "3" never went down
    clock.t = 1_700;
    missed.accepted("token_trade_matches", ["2"]);
    missed.accepted("token_trade_matches", ["2"]); // accepted again: nothing open
    expect(written.map((f) => [f.id, f.data])).toEqual([
      ["1", { tokenId: "1", fromMs: 900, toMs: 1_500 }],
      ["2", { tokenId: "2", fromMs: 900, toMs: 1_700 }],
    ]);
    expect(written[0]).toMatchObject({
      type: "prints_missed",
      sid: "gap",
      channel: "token_trade_matches",
      via: "reconnect",
    });
    expect(missed.written).toBe(2);
  });

  it("a link that never delivered a frame is missed from the moment it went down", () => {
    const clock = new SetClock(5_000);
    const written: MarketFrame[] = [];
    const missed = new MissedPrints({
      client: { idsOn: () => ["9"] },
      clock,
      write: (f) => written.push(f) > 0,
    });
    missed.down(0);
    clock.t = 6_000;
    missed.accepted("token_trade_matches", ["9"]);
    expect(written.map((f) => f.data)).toEqual([{ tokenId: "9", fromMs: 5_000, toMs: 6_000 }]);
  });

  /*
   * s19 reccarry: a stretch still open when the recording stopped (during the outage, or
   * reconnected but the token's prints not accepted again yet) was never written, so a replay of
   * the recording listed nothing there and took the recording's end for a quiet market.
   */
  it("stop() writes every stretch still open, ending at the stop, and marks nothing after it", () => {
    const clock = new SetClock(1_000);
    const written: MarketFrame[] = [];
    const links: Record<number, string[]> = { 0: ["1", "2"], 1: ["3"] };
    const missed = new MissedPrints({
      client: { idsOn: (link) => links[link] ?? [] },
      clock,
      write: (f) => written.push(f) > 0,
    });
    missed.frame(0, 900);
    missed.down(0);
    clock.t = 1_300;
    missed.accepted("token_trade_matches", ["1"]); // "2" not accepted again yet
    clock.t = 2_000;
    missed.stop();
    missed.stop(); // twice: nothing more
    missed.down(1); // closing the connections is no outage
    missed.accepted("token_trade_matches", ["2", "3"]);
    expect(written.map((f) => [f.id, f.via, f.data])).toEqual([
      ["1", "reconnect", { tokenId: "1", fromMs: 900, toMs: 1_300 }],
      ["2", "reconnect", { tokenId: "2", fromMs: 900, toMs: 2_000 }],
    ]);
    expect(missed.written).toBe(2);
  });

  /*
   * s22 recwatch: a token_trade_matches subscription the server dropped on a live socket (found by
   * the client's list_subscriptions check, then subscribed again) and a subscribe refused with a
   * retryable code (until a retry is accepted) lost prints too, and nothing marked them.
   */
  function rig(links: Record<number, string[]> = {}) {
    const clock = new SetClock(1_000);
    const written: MarketFrame[] = [];
    const missed = new MissedPrints({
      client: { idsOn: (link) => links[link] ?? [] },
      clock,
      write: (f) => written.push(f) > 0,
    });
    const marks = () => written.map((f) => [f.id, f.via, f.data]);
    return { clock, missed, marks };
  }

  it("a dropped subscription is missed from the last time it was known held: accepted, listed, or a print", () => {
    const { clock, missed, marks } = rig();
    missed.accepted("token_trade_matches", ["1", "2", "3"]); // held at 1_000
    clock.t = 2_000;
    missed.held("token_trade_matches", ["2", "3"]); // a check listed them
    missed.held("token_book", ["1"]); // another channel's listing says nothing of prints
    missed.printed("3", 2_500);
    missed.printed("3", 2_400); // an older receive time moves nothing back
    clock.t = 3_000;
    missed.lost("token_trade_matches", ["1", "2", "3"]);
    missed.lost("token_book", ["4"]);
    missed.printed("2", 3_100); // open: a print (say, of the resubscribe) moves nothing
    missed.held("token_trade_matches", ["1"]); // open: nothing either
    clock.t = 4_000;
    missed.accepted("token_trade_matches", ["1", "2", "3"]);
    expect(marks()).toEqual([
      ["1", "dropped", { tokenId: "1", fromMs: 1_000, toMs: 4_000 }],
      ["2", "dropped", { tokenId: "2", fromMs: 2_000, toMs: 4_000 }],
      ["3", "dropped", { tokenId: "3", fromMs: 2_500, toMs: 4_000 }],
    ]);
  });

  it("a retryable refusal is missed from the refusal to the accepting retry; a final one opens nothing", () => {
    const { clock, missed, marks } = rig();
    const refused = { channel: "token_trade_matches", code: "internal_error", message: "" } as const;
    missed.refused({ ...refused, ids: ["1"], retryInMs: 500, attempt: 1 });
    missed.refused({ ...refused, ids: ["2"], code: "forbidden" });
    missed.refused({ ...refused, channel: "token_book", ids: ["3"], retryInMs: 500, attempt: 1 });
    clock.t = 1_500;
    missed.refused({ ...refused, ids: ["1"], retryInMs: 1_000, attempt: 2 }); // still from the first
    clock.t = 2_500;
    missed.accepted("token_trade_matches", ["1", "2"]);
    expect(marks()).toEqual([["1", "refused", { tokenId: "1", fromMs: 1_000, toMs: 2_500 }]]);
  });

  it("a stretch opens once: a reconnect during a refused subscribe's back-off keeps its start and cause", () => {
    const { clock, missed, marks } = rig({ 0: ["1", "2"] });
    missed.accepted("token_trade_matches", ["2"]);
    clock.t = 1_200;
    missed.refused({
      channel: "token_trade_matches",
      ids: ["1"],
      code: "internal_error",
      message: "",
      retryInMs: 500,
      attempt: 1,
    });
    missed.frame(0, 1_100); // the link's last frame, before "2" was last seen held
    clock.t = 1_300;
    missed.held("token_trade_matches", ["2"]);
    clock.t = 2_000;
    missed.down(0);
    clock.t = 3_000;
    missed.accepted("token_trade_matches", ["1", "2"]);
    expect(marks()).toEqual([
      ["1", "refused", { tokenId: "1", fromMs: 1_200, toMs: 3_000 }],
      ["2", "reconnect", { tokenId: "2", fromMs: 1_300, toMs: 3_000 }],
    ]);
  });
});
