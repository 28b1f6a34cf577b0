import { describe, expect, it } from "vitest";
import { ExchangeError } from "../../../src/exchange/exchange-error.js";
import { Harness } from "./support/harness.js";

/*
 * Session 20 (s20-recon). A cancel whose answer is lost (a timeout, the connection dropped) leaves
 * its order in doubt: gone, or still resting. The reconcile its ambiguous answer triggers finds the
 * order absent from the open list and looks it up (GET /api/orders/{id}); when that lookup failed
 * too, the whole run failed, and its follow-up came at the failure backoff's pace — during a lasting
 * failure elsewhere (a positions read refused, backed off to the periodic run) only up to
 * reconcile.intervalMs later, while an unknown placement whose history search failed the same way
 * kept its 2 s follow-up. Until then mm counts the order as resting (exposure, its level blocked).
 * Now a failed lookup fails alone, as a failed history search does: the order stays in doubt,
 * counted with the unresolved placements, and followed up after retryMs, after a run that then
 * succeeds or fails alike.
 */

const refused = () =>
  new ExchangeError({
    code: "wallet_mismatch",
    message: "signer is not the wallet",
    outcome: "rejected",
    endpoint: "GET /api/me/positions",
    httpStatus: 401,
  });
const lost = (endpoint: string) =>
  new ExchangeError({
    code: "request_timeout",
    message: "no answer within the timeout",
    outcome: "ambiguous",
    endpoint,
  });

/**
 * The next cancel reaches the venue (the order is cancelled there) but its answer is lost, and the
 * next `lookups` GET /api/orders/{id} fail. Resolves to when the order went into doubt and when mm
 * saw it end (undefined: not within 60 s).
 */
async function cancelInDoubt(h: Harness, a: string, lookups: number) {
  const cancel = h.exchange.cancel.bind(h.exchange);
  let doubted: string | undefined;
  h.exchange.cancel = async (orderId) => {
    if (doubted !== undefined) return cancel(orderId);
    doubted = orderId;
    await cancel(orderId);
    throw lost("DELETE /api/orders/{id}");
  };
  const order = h.exchange.order.bind(h.exchange);
  let failing = lookups;
  h.exchange.order = async (orderId) => {
    if (orderId === doubted && failing > 0) {
      failing--;
      throw lost("GET /api/orders/{id}");
    }
    return order(orderId);
  };
  h.crowdQuote(a, "0.46", "0.50"); // a requote: the resting quotes are cancelled
  const held = () => h.engine.liveOrders().some((o) => o.orderId !== undefined && o.orderId === doubted);
  let seenAt: number | undefined;
  let endedAt: number | undefined;
  for (let i = 0; i < 600 && endedAt === undefined; i++) {
    await h.run(100);
    if (seenAt === undefined && doubted !== undefined && held()) seenAt = h.clock.now();
    else if (seenAt !== undefined && !held()) endedAt = h.clock.now();
  }
  return { seenAt, endedAt, lookupsLeft: failing };
}

describe("reconcile: a cancel in doubt whose lookup fails", () => {
  it("is followed up after retryMs during a lasting failure elsewhere, not at the periodic pace", async () => {
    const h = new Harness(); // reconcile every 30 s, follow-ups 2 s
    const [a] = h.tokens();
    h.crowdQuote(a, "0.48", "0.52");
    await h.engine.start();
    await h.run(1_000);
    h.exchange.positionsAt = async () => {
      throw refused();
    };
    await h.run(5 * 60_000); // the streak has backed off to the periodic pace
    expect(h.eventsOf("reconcile_failed").length).toBeGreaterThan(5);
    const { seenAt, endedAt, lookupsLeft } = await cancelInDoubt(h, a, 1);
    expect(lookupsLeft).toBe(0);
    expect(seenAt).toBeDefined();
    // Was: held as resting until the next periodic run, up to 30 s on.
    expect(endedAt).toBeDefined();
    expect((endedAt ?? Number.POSITIVE_INFINITY) - (seenAt ?? 0)).toBeLessThanOrEqual(3_000);
    await h.engine.stop("test", 5_000);
  });

  it("leaves the run to go on (it succeeds) and is followed up after retryMs", async () => {
    const h = new Harness();
    const [a] = h.tokens();
    h.crowdQuote(a, "0.48", "0.52");
    await h.engine.start();
    await h.run(1_000);
    const failedBefore = h.eventsOf("reconcile_failed").length;
    const runs = h.eventsOf("reconcile").length;
    const { seenAt, endedAt } = await cancelInDoubt(h, a, 1);
    expect(endedAt).toBeDefined();
    expect((endedAt ?? Number.POSITIVE_INFINITY) - (seenAt ?? 0)).toBeLessThanOrEqual(3_000);
    // The run whose lookup failed still read the trades and positions: it succeeded, the order in doubt.
    expect(h.eventsOf("reconcile_failed").length).toBe(failedBefore);
    const summaries = h
      .eventsOf("reconcile")
      .slice(runs)
      .map((e) => e.summary);
    expect(summaries.some((s) => s.inDoubt === 1 && s.unread === 1)).toBe(true);
    expect(
      h.logs.records().filter((r) => r.level === 40 && String(r.msg).includes("their lookup failed")),
    ).toHaveLength(1);
    await h.engine.stop("test", 5_000);
  });
});
