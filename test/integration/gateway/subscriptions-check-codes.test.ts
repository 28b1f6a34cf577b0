import { describe, expect, it } from "vitest";
import { settle, until } from "./harness.js";
import { type Answer, politeAnswer, RawServer } from "./raw-server.js";
import { feedSlots } from "./sim-feed.js";

/*
 * Any refused get_book_snapshot made the client check its subscriptions (list_subscriptions),
 * whatever the code: while the server rate-limited, each refused probe added one more command (found
 * by review s20 rsubs). Only invalid_params (the spec's code for naming what the server does not
 * know; the mock's "not subscribed") can mean a dropped subscription; a refusal for load or failure
 * checks nothing. Real GatewayClient against a scripted ws server on 127.0.0.1.
 */

const A = "111";
const slots = feedSlots();

describe("the subscriptions check after a refused get_book_snapshot", () => {
  it("runs on invalid_params only, not on rate_limited or a server error", async () => {
    let code = "rate_limited";
    const polite = politeAnswer();
    const answer: Answer = (c, conn) =>
      c.cmd === "get_book_snapshot" ? { type: "error", code, message: "refused" } : polite(c, conn);
    const srv = await new RawServer(answer).listen();
    const { client, feed } = slots.feedOn(srv);
    await feed.start();
    await feed.subscribeBooks([A]);

    for (const c of ["rate_limited", "internal_error", "exchange_unavailable"]) {
      code = c;
      expect(client.requestBookSnapshot(A)).toBe(true);
      await until(
        () => srv.commands("get_book_snapshot").length > 0 && client.counters.commandRejections > 0,
        c,
      );
      await client.ping(); // the refusal was read before this pong
      await settle(20);
      expect(srv.commands("list_subscriptions"), c).toHaveLength(0);
      client.counters.commandRejections = 0;
    }

    code = "invalid_params";
    expect(client.requestBookSnapshot(A)).toBe(true);
    await until(() => srv.commands("list_subscriptions").length === 1, "the check after invalid_params");
  });
});
