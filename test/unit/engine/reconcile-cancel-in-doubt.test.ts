import { describe, expect, it } from "vitest";
import { Harness } from "./support/harness.js";
import { cancelInDoubt, lastingPositionsFailure } from "./support/reconcile-faults.js";

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

describe("reconcile: a cancel in doubt whose lookup fails", () => {
  it("is followed up after retryMs during a lasting failure elsewhere, not at the periodic pace", async () => {
    const { h, a } = await lastingPositionsFailure(); // the streak has backed off to the periodic pace
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
