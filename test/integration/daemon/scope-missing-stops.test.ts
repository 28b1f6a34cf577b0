import { describe, expect, it } from "vitest";
import { childSlots, spawnMm } from "../../e2e/support.js";
import { daemonEnv, market, SCENARIO, seedMarket, startMock } from "../daemon/support.js";

/*
 * `mm run` with an API key that lacks orders:write (the default scenario's apiKeys[1], the read-only
 * key `mm mock` prints second, next to the trading one). Every placement is answered 403
 * api_key_scope_missing; taken as one order's reject, the error-rate halt tripped (10 errors), cooled
 * down 60 s, let the next round be refused, and so on for ever, while the start line said "16
 * token(s) quoted" (review 18). The spec (Authentication, step 5) makes a missing scope a property of
 * the key: no retry with it can succeed, exactly as for a revoked key, which exits 3. So the first
 * such refusal stops the run through the same path: exit 3, the scope and the request named.
 */

const slots = childSlots();

describe("mm run with a key without orders:write (api_key_scope_missing)", () => {
  it("stops with exit 3 naming the missing scope instead of halting and retrying for ever", async () => {
    const readOnly = SCENARIO.apiKeys[1];
    expect(readOnly?.scopes).not.toContain("orders:write");
    expect(readOnly?.partnerId).toBe(SCENARIO.apiKeys[0]?.partnerId);
    const mock = await startMock();
    slots.mock = mock;
    const arg = market("arg-vs-fra-final-arg-win");
    seedMarket(mock, arg, "0.50", "0.60");
    const mm = spawnMm(["run"], daemonEnv(mock, [arg.slug], { MM_API_KEY: readOnly?.key ?? "" }));
    slots.mm = mm;
    // The placements are refused within a second of the start.
    await mm.waitFor(
      (r) => r.msg === "placement rejected" && r.code === "api_key_scope_missing",
      15_000,
      "a placement refused for the missing scope",
    );
    const ended = await Promise.race([
      mm.exited,
      new Promise<"still running">((r) => setTimeout(() => r("still running"), 10_000)),
    ]);
    // Was: "still running" (error-rate halt, cool-down, refused again, ...), exit never.
    expect(ended).toBe(3);
    expect(mm.stderr()).toContain(
      "api_key_scope_missing: the API key lacks orders:write, which POST /api/orders/place needs",
    );
    expect(mm.stderr()).toContain("exit 3");
  }, 40_000);
});
