import { afterEach, describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import type { GatewayClient } from "../../../src/gateway/client.js";
import type { RejectedIds, RestoredIds } from "../../../src/gateway/waiters.js";
import { CAP, capServer } from "./cap-server.js";
import { type Answer, RawServer, rawClient, runClock } from "./raw-server.js";

/*
 * update_subscription is all or nothing (the mock's, and the only safe reading of the spec, which
 * shows no payload for it): refused, the server still holds the ids it was asked to remove. The
 * client used to forget them from its own view at once, so it undercounted the subscription; an
 * add filling it to the cap afterwards was refused subscription_too_many_ids, which is final: a
 * healthy book refused for good. The removals now stay held in the client's view and are sent
 * again. Found by the gateway review (question 1).
 */

let server: RawServer | undefined;
let client: GatewayClient | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

const run = (clock: SimClock, ms: number): Promise<void> => runClock(clock, ms, 100);

async function started(answer: Answer, ids = ["1", "2", "3", "4"]) {
  server = await new RawServer(answer).listen();
  const clock = new SimClock(0);
  const timing = {
    pingIntervalMs: 60_000,
    silenceTimeoutMs: 120_000,
    backoff: { baseMs: 400, factor: 2, maxMs: 2_000 },
  };
  const c = rawClient(server.url, clock, timing, { random: () => 1, limits: { maxIdsPerSubscription: CAP } });
  client = c;
  const rejected: RejectedIds[] = [];
  const restored: RestoredIds[] = [];
  c.onRejected((r) => rejected.push(r));
  c.onRestored((r) => restored.push(r));
  await c.start();
  expect((await c.subscribe("token_book", ids)).accepted).toHaveLength(ids.length);
  return { c, clock, rejected, restored };
}

describe("an update_subscription refused: its removals are still held by the server", () => {
  it("a retried add that fills the subscription to the cap goes with the removal again: accepted, and a later add too", async () => {
    let refusals = 1;
    const { answer, held } = capServer("after removals", ({ add }) =>
      add.includes("4") && refusals-- > 0 ? "internal_error" : undefined,
    );
    // 3 of CAP ids held: a swap of one fits in one command however a server counts (removalsFirst).
    const { c, clock, rejected, restored } = await started(answer, ["1", "2", "3"]);
    // One pass: 3 leaves and 4 takes its place in the same subscription; refused (retryable).
    const gone = c.unsubscribe("token_book", ["3"]);
    const outcome = c.subscribe("token_book", ["4"]);
    await gone;
    expect((await outcome).rejected[0]?.code).toBe("internal_error");
    expect(server?.commands("update_subscription")[0]?.params).toEqual({
      sid: 1,
      add_ids: ["4"],
      remove_ids: ["3"],
    });
    await run(clock, 1_000);
    expect(server?.commands("update_subscription")[1]?.params).toEqual({
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
    const { c, clock, rejected } = await started(answer);
    await c.unsubscribe("token_book", ["4"]);
    expect([...(held.get(1) ?? [])]).toContain("4");
    await run(clock, 1_000);
    expect(server?.commands("update_subscription").map((u) => u.params?.remove_ids)).toEqual([["4"], ["4"]]);
    expect([...(held.get(1) ?? [])].sort()).toEqual(["1", "2", "3"]);
    expect(rejected).toEqual([]); // nothing wanted was refused
    await run(clock, 5_000);
    expect(server?.commands("update_subscription")).toHaveLength(2); // and nothing more is sent
  });

  it("a removal refused alone with a final code is not sent again (the server would say the same)", async () => {
    const { answer } = capServer("after removals", ({ remove }) =>
      remove.length > 0 ? "invalid_params" : undefined,
    );
    const { c, clock } = await started(answer);
    await c.unsubscribe("token_book", ["4"]);
    await run(clock, 5_000);
    expect(server?.commands("update_subscription")).toHaveLength(1);
  });
});
