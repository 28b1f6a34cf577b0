import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SimClock } from "../../../../src/core/sim-clock.js";
import type { MockContext } from "../../../../src/mock/context.js";
import { MockAdmin } from "../../../../src/mock/faults/admin.js";
import { adminRoutes } from "../../../../src/mock/faults/admin-routes.js";
import { type HttpListener, listenHttp } from "../../../../src/mock/http/listen.js";
import { httpRoutes } from "../../../../src/mock/http/routes/index.js";
import { FakeGateway, simContext } from "../../../unit/mock/sim-support.js";

/*
 * The spec's Market record: payoutNumerators is "Per-outcome payout vector, set on resolution".
 * After /__admin/resolve-market the REST record carries the payout per share of each outcome, in
 * outcomeLabels order, the same values market_resolved pushes as `payouts`; null before.
 */

let ctx: MockContext;
let clock: SimClock;
let http: HttpListener;

beforeEach(async () => {
  ({ ctx, clock } = simContext());
  http = await listenHttp(ctx, [...httpRoutes(ctx), ...adminRoutes(new MockAdmin(ctx, new FakeGateway()))]);
});
afterEach(async () => {
  await http.close();
  ctx.venue.dispose();
});

async function record(slug: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${http.url}/api/markets/${slug}`);
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

async function resolve(marketId: string, winningOutcome: string) {
  const res = await fetch(`${http.url}/__admin/resolve-market`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ marketId, winningOutcome }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { payouts: Record<string, string> };
}

describe("market record after resolve-market", () => {
  it("sets payoutNumerators to the outcome payouts (YES wins: [1, 0]; NO wins: [0, 1]); null before", async () => {
    const arg = "arg-vs-fra-final-arg-win";
    const fra = "arg-vs-fra-final-fra-win";
    expect((await record(arg)).payoutNumerators).toBeNull();
    clock.advanceBy(1_000);
    const r = await resolve("ARG-WIN", "YES");
    const after = await record(arg);
    expect(after).toMatchObject({
      status: "RESOLVED",
      outcomeLabels: ["YES", "NO"],
      payoutNumerators: ["1", "0"],
      resolvedAt: new Date(clock.now()).toISOString(),
    });
    expect(after.payoutNumerators).toEqual([r.payouts["0"], r.payouts["1"]]);
    expect((await record(fra)).payoutNumerators).toBeNull(); // not resolved yet

    await resolve("FRA-WIN", "NO");
    expect((await record(fra)).payoutNumerators).toEqual(["0", "1"]);
    // The list carries the same record.
    const list = (await (await fetch(`${http.url}/api/markets`)).json()) as {
      markets: Record<string, unknown>[];
    };
    const bySlug = new Map(list.markets.map((m) => [m.slug, m.payoutNumerators]));
    expect([bySlug.get(arg), bySlug.get(fra)]).toEqual([
      ["1", "0"],
      ["0", "1"],
    ]);
  });
});
