import { afterEach, describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import type { GatewayClient } from "../../../src/gateway/client.js";
import type { RejectedIds } from "../../../src/gateway/waiters.js";
import { type Answer, politeAnswer, RawServer, rawClient, runClock } from "./raw-server.js";

/*
 * The spec shows no WebSocket error payload. mm read only a top-level `code`, so a server nesting
 * it as `error: {code, message}` (the shape of the HTTP nested envelope) had every refusal read as
 * `command_failed`, which is retried: a subscription refused for good (forbidden, invalid_params…)
 * was sent again for ever, and never reported by its code. Both shapes are read now
 * (parseErrorReply, src/gateway/replies.ts). Found by the client review (question 3).
 */

/** politeAnswer, except that `cmd` is refused with `code`, nested under `error`. */
function nestedRefusal(cmd: string, code: string): Answer {
  const polite = politeAnswer();
  return (c, conn) =>
    c.cmd === cmd
      ? { type: "error", error: { code, message: `nested ${code}`, trace_id: "t1" } }
      : polite(c, conn);
}

let server: RawServer | undefined;
let client: GatewayClient | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

async function started(answer: Answer) {
  server = await new RawServer(answer).listen();
  const clock = new SimClock(0);
  const timing = {
    pingIntervalMs: 60_000,
    silenceTimeoutMs: 120_000,
    backoff: { baseMs: 400, factor: 2, maxMs: 2_000 },
  };
  const c = rawClient(server.url, clock, timing, { random: () => 1 });
  client = c;
  const rejected: RejectedIds[] = [];
  c.onRejected((r) => rejected.push(r));
  await c.start();
  return { c, clock, rejected, srv: server };
}

describe("a WebSocket error reply nesting its code under `error`", () => {
  it("a subscribe refused so is refused by that code: final, reported, never sent again", async () => {
    const { c, clock, rejected, srv } = await started(nestedRefusal("subscribe", "forbidden"));
    const outcome = await c.subscribe("token_book", ["1"]);
    expect(outcome.rejected).toEqual([
      { channel: "token_book", ids: ["1"], code: "forbidden", message: "nested forbidden" },
    ]);
    await runClock(clock, 5_000, 100);
    expect(srv.commands("subscribe")).toHaveLength(1);
    expect(rejected.map((r) => r.code)).toEqual(["forbidden"]);
    expect(c.counters.subscriptionRefusals).toEqual({ "token_book:forbidden": 1 });
  });

  it("an update_subscription refused so: its adds refused by that code, for good", async () => {
    const { c, clock, srv } = await started(nestedRefusal("update_subscription", "invalid_params"));
    expect((await c.subscribe("token_book", ["1"])).accepted).toEqual(["1"]);
    const outcome = await c.subscribe("token_book", ["2"]);
    expect(outcome.rejected).toEqual([
      { channel: "token_book", ids: ["2"], code: "invalid_params", message: "nested invalid_params" },
    ]);
    await runClock(clock, 5_000, 100);
    expect(srv.commands("update_subscription")).toHaveLength(1);
    expect(c.idsOn(0, "token_book")).toEqual(["1"]);
  });

  it("a retryable code nested so is still retried, under its own code", async () => {
    let refusals = 1;
    const polite = politeAnswer();
    const { c, clock, rejected, srv } = await started((cmd, conn) =>
      cmd.cmd === "subscribe" && refusals-- > 0
        ? { type: "error", error: { code: "internal_error", message: "later" } }
        : polite(cmd, conn),
    );
    const outcome = await c.subscribe("token_book", ["1"]);
    expect(outcome.rejected).toEqual([
      {
        channel: "token_book",
        ids: ["1"],
        code: "internal_error",
        message: "later",
        retryInMs: 400,
        attempt: 1,
      },
    ]);
    await runClock(clock, 1_000, 100);
    expect(srv.commands("subscribe")).toHaveLength(2);
    expect(rejected.map((r) => r.code)).toEqual(["internal_error"]);
    expect(c.idsOn(0, "token_book")).toEqual(["1"]);
  });

  it("a reply with the error object alone (no type) is that refusal, not a malformed frame", async () => {
    const polite = politeAnswer();
    const { c, clock, rejected, srv } = await started((cmd, conn) =>
      cmd.cmd === "subscribe" ? { error: { code: "forbidden", message: "typeless" } } : polite(cmd, conn),
    );
    const outcome = await c.subscribe("token_book", ["1"]);
    expect(outcome.rejected).toEqual([
      { channel: "token_book", ids: ["1"], code: "forbidden", message: "typeless" },
    ]);
    await runClock(clock, 5_000, 100);
    expect(srv.commands("subscribe")).toHaveLength(1);
    expect(rejected.map((r) => r.code)).toEqual(["forbidden"]);
    expect(c.counters.malformed).toEqual({});
    expect(c.counters.commandRejections).toBe(1);
  });
});
