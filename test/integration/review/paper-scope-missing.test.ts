import { describe, expect, it } from "vitest";
import { childSlots, spawnMm } from "../../e2e/support.js";
import { daemonEnv, market, SCENARIO, seedMarket, startMock } from "../daemon/support.js";

/*
 * review18 (rv-paper): `mm run` with an API key that lacks orders:write (the default scenario's
 * apiKeys[1], the read-only key `mm mock` prints second, next to the trading one) never quotes and
 * never stops. Every placement is answered 403 api_key_scope_missing; the error-rate halt trips
 * (10 errors), cools down 60 s, lets the next round of placements be refused, and so on for ever,
 * while the start line said "16 token(s) quoted". The spec (Authentication, step 5) makes a missing
 * scope a property of the key: no retry with the same key can succeed, exactly as for a revoked
 * key, which exits 3 ("the exchange refused the API key for good ... a restart will not help").
 * KEY_REFUSED_CODES leaves api_key_scope_missing out on purpose ("the key works, a scope is
 * missing"), but nothing else handles it. Expected: a placement (or cancel) refused with
 * api_key_scope_missing for orders:write ends the run with exit 3 naming the missing scope.
 */

const slots = childSlots();

describe("mm run with a key without orders:write", () => {
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
    expect(mm.stderr()).toMatch(/api_key_scope_missing|orders:write/);
  }, 40_000);
});
