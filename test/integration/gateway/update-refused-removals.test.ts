import { afterEach, describe, expect, it } from "vitest";
import type { SimClock } from "../../../src/core/sim-clock.js";
import { capClient, capServer, closeCapClients } from "./cap-server.js";
import { runClock } from "./raw-server.js";

/*
 * update_subscription is all or nothing (the mock's, and the only safe reading of the spec, which
 * shows no payload for it): refused, the server still holds the ids it was asked to remove. The
 * client used to forget them from its own view at once, so it undercounted the subscription; an
 * add filling it to the cap afterwards was refused subscription_too_many_ids, which is final: a
 * healthy book refused for good. The removals now stay held in the client's view and are sent
 * again. Found by the gateway review (question 1).
 */

afterEach(closeCapClients);

const run = (clock: SimClock, ms: number): Promise<void> => runClock(clock, ms, 100);

describe("an update_subscription refused: its removals are still held by the server", () => {
  it("a retried add that fills the subscription to the cap goes with the removal again: accepted, and a later add too", async () => {
    let refusals = 1;
    const { answer, held } = capServer("after removals", ({ add }) =>
      add.includes("4") && refusals-- > 0 ? "internal_error" : undefined,
    );
    // 3 of CAP ids held: a swap of one fits in one command however a server counts (removalsFirst).
    const { c, clock, rejected, restored, updates } = await capClient(answer, ["1", "2", "3"]);
    // One pass: 3 leaves and 4 takes its place in the same subscription; refused (retryable).
    const gone = c.unsubscribe("token_book", ["3"]);
    const outcome = c.subscribe("token_book", ["4"]);
    await gone;
    expect((await outcome).rejected[0]?.code).toBe("internal_error");
    expect(updates()[0]).toEqual({
      sid: 1,
      add_ids: ["4"],
      remove_ids: ["3"],
    });
    await run(clock, 1_000);
    expect(updates()[1]).toEqual({
      sid: 1,
      add_ids: ["4"],
      remove_ids: ["3"],
    });
    expect(rejected.map((r) => r.code)).toEqual(["internal_error"]);
    expect(restored).toEqual([{ channel: "token_book", ids: ["4"] }]);
    expect(c.idsOn(0, "token_book").sort()).toEqual(["1", "2", "4"]);
    expect([...(held.get(1) ?? [])].sort()).toEqual(["1", "2", "4"]);
    // Had 3 been forgotten at the refusal, the server would hold 1..4 now and refuse this for good.
    expect((await c.subscribe("token_book", ["5"])).accepted).toEqual(["5"]);
    expect([...(held.get(1) ?? [])].sort()).toEqual(["1", "2", "4", "5"]);
  });

  it("a removal refused alone is sent again after back-off", async () => {
    let refusals = 1;
    const { answer, held } = capServer("after removals", ({ remove }) =>
      remove.length > 0 && refusals-- > 0 ? "internal_error" : undefined,
    );
    const { c, clock, rejected, updates } = await capClient(answer);
    await c.unsubscribe("token_book", ["4"]);
    expect([...(held.get(1) ?? [])]).toContain("4");
    await run(clock, 1_000);
    expect(updates().map((p) => p?.remove_ids)).toEqual([["4"], ["4"]]);
    expect([...(held.get(1) ?? [])].sort()).toEqual(["1", "2", "3"]);
    expect(rejected).toEqual([]); // nothing wanted was refused
    await run(clock, 5_000);
    expect(updates()).toHaveLength(2); // and nothing more is sent
  });

  it("a removal refused alone with a final code is not sent again (the server would say the same)", async () => {
    const { answer } = capServer("after removals", ({ remove }) =>
      remove.length > 0 ? "invalid_params" : undefined,
    );
    const { c, clock, updates } = await capClient(answer);
    await c.unsubscribe("token_book", ["4"]);
    await run(clock, 5_000);
    expect(updates()).toHaveLength(1);
  });
});
