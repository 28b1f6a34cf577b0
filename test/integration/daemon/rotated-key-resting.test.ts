import { describe, expect, it } from "vitest";
import { DAEMON_EXIT } from "../../../src/app/outcome.js";
import { serverSlots } from "./rest-front.js";
import { daemonConfig, market, mockWithTwoResting, openOnMock, SCENARIO, supervisedRun } from "./support.js";

/*
 * The key was rotated to one without orders:write (mm mock's read-only key: orders:read and
 * portfolio:read), and an earlier run's two quotes still rest on the exchange. The start-up
 * reconcile's cancel is refused 403 api_key_scope_missing: exit 3, rightly, since mm cannot cancel.
 * The exit line said "quotes cancelled where possible"; it now says that 2 orders rest (the
 * open-orders read after the cancels lists them) until cancelled with a key holding orders:write.
 */

const slots = serverSlots();
const ARG = market("arg-vs-fra-final-arg-win");

describe("mm run with a rotated key without orders:write, an earlier run's orders resting", () => {
  it("exits 3 saying how many orders rest and that they stay until cancelled with orders:write", async () => {
    const mock = await mockWithTwoResting(slots, ARG);
    const readOnly = SCENARIO.apiKeys[1];
    expect(readOnly?.scopes).toContain("orders:read");
    expect(readOnly?.scopes).not.toContain("orders:write");
    const config = daemonConfig(mock, [ARG.slug], {
      MM_API_KEY: readOnly?.key ?? "",
      // Short, so that a stop retrying refused cancels again would not hold the suite for long
      // (scope-refused-stop-prompt.test.ts measures the stop with the default budget).
      MM_SHUTDOWN_TIMEOUT_MS: "2000",
    });
    const { code, stderr } = await supervisedRun(config);
    expect(code).toBe(DAEMON_EXIT.fatal);
    expect(openOnMock(mock)).toHaveLength(2);
    expect(stderr).toContain("the API key lacks orders:write");
    // Was: "quotes cancelled where possible; exit 3".
    expect(stderr).toContain(
      "2 order(s) of the wallet still rest on the exchange (its open-orders list, read after the cancels): they stay there until cancelled with a key holding orders:write",
    );
    expect(stderr).not.toContain(readOnly?.key.split("_")[3] ?? "no secret");
  }, 20_000);
});
