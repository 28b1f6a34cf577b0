import { afterEach, describe, expect, it } from "vitest";
import { type Counting, capClient, capServer, closeCapClients } from "./cap-server.js";
import { runClock } from "./raw-server.js";

/*
 * The spec caps a subscription and an add_ids call at 100 ids and shows no payload for
 * update_subscription, so not whether a server counts a command's ids before or after applying its
 * removals. mm sent a subscription's removals and additions in one command; a server counting
 * before the removals (or the command's ids together) refused it subscription_too_many_ids, a final
 * code, and the added ids (healthy books) were dropped for good. Now, when one command would be
 * over the cap counted so, the removals go alone first and the additions once they are
 * acknowledged (removalsFirst, src/gateway/sync.ts). Found by the client review (question 2).
 */

afterEach(closeCapClients);

describe("update_subscription at the id cap: removals first, whatever order the server counts in", () => {
  it.each<Counting>(["before removals", "command ids", "after removals"])(
    "a server counting %s: the removals go alone, the adds after their acknowledgement; a command that fits stays one",
    async (counting) => {
      const { answer, held } = capServer(counting);
      const { c, rejected, updates } = await capClient(answer);
      // One pass: 2, 3 and 4 leave, 5 and 6 join (4 held + 2 added: over the cap before the removals).
      const gone = c.unsubscribe("token_book", ["2", "3", "4"]);
      const outcome = c.subscribe("token_book", ["5", "6"]);
      await gone;
      expect(await outcome).toEqual({ accepted: ["5", "6"], rejected: [] });
      expect(updates()).toEqual([
        { sid: 1, remove_ids: ["2", "3", "4"] },
        { sid: 1, add_ids: ["5", "6"] },
      ]);
      expect([...(held.get(1) ?? [])].sort()).toEqual(["1", "5", "6"]);
      // 3 held + 1 added fits however counted: one command, as before.
      const left = c.unsubscribe("token_book", ["1"]);
      const joined = c.subscribe("token_book", ["7"]);
      await left;
      expect((await joined).accepted).toEqual(["7"]);
      expect(updates()[2]).toEqual({ sid: 1, add_ids: ["7"], remove_ids: ["1"] });
      expect([...(held.get(1) ?? [])].sort()).toEqual(["5", "6", "7"]);
      expect(rejected).toEqual([]);
      expect(c.idsOn(0, "token_book").sort()).toEqual(["5", "6", "7"]);
    },
  );

  it("a removal held back ahead of adds and refused for now: the adds wait with it, are retried after it, and are restored", async () => {
    let refusals = 1;
    const { answer, held } = capServer("before removals", ({ remove }) =>
      remove.length > 0 && refusals-- > 0 ? "internal_error" : undefined,
    );
    const { c, clock, rejected, restored, updates } = await capClient(answer);
    const gone = c.unsubscribe("token_book", ["4"]);
    const outcome = c.subscribe("token_book", ["5"]);
    await gone;
    // The adds are reported with the removal's code and retried with it, as one command's would be.
    expect((await outcome).rejected).toEqual([
      {
        channel: "token_book",
        ids: ["5"],
        code: "internal_error",
        message: "refused",
        retryInMs: 400,
        attempt: 1,
      },
    ]);
    expect(updates()).toEqual([{ sid: 1, remove_ids: ["4"] }]);
    await runClock(clock, 1_000, 100);
    expect(updates()).toEqual([
      { sid: 1, remove_ids: ["4"] },
      { sid: 1, remove_ids: ["4"] },
      { sid: 1, add_ids: ["5"] },
    ]);
    expect(rejected.map((r) => r.code)).toEqual(["internal_error"]);
    expect(restored).toEqual([{ channel: "token_book", ids: ["5"] }]);
    expect([...(held.get(1) ?? [])].sort()).toEqual(["1", "2", "3", "5"]);
    expect(c.idsOn(0, "token_book").sort()).toEqual(["1", "2", "3", "5"]);
  });
});
