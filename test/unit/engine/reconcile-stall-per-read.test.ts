import { describe, expect, it } from "vitest";
import { Harness } from "./support/harness.js";
import { ambiguousBid } from "./support/harness-records.js";
import { cancelInDoubt, historySearchFailed } from "./support/reconcile-faults.js";

/*
 * From review 20 (rexec), 56729f6 against 3c216b1. The follow-up backoff of orders left in doubt by a
 * failed read is one counter for the whole scheduler (ReconcileScheduler.#stalls), not per read.
 * While one unknown placement's history search keeps failing (backed off to the periodic run), a
 * cancel whose answer is lost and whose lookup fails once — a blip, its first failure — inherits
 * that backoff: the order (gone on the exchange) is held live, its level blocked and its exposure
 * counted, until the next periodic run, up to reconcile.intervalMs later, instead of the 2 s
 * follow-up 3c216b1 gave it. Only a read that *keeps* failing should be asked at the periodic pace.
 */

describe("review rexec: a new cancel in doubt while another search is stuck", () => {
  it("is followed up after retryMs at its first failed lookup, not at the stuck search's backed-off pace", async () => {
    const h = new Harness(); // reconcile every 30 s, follow-ups 2 s
    const [a] = h.tokens();
    h.crowdQuote(a, "0.48", "0.52");
    const cid = await ambiguousBid(h);
    const real = h.exchange.ordersByClientId.bind(h.exchange);
    h.exchange.ordersByClientId = async (ids, window, resume) => {
      if (!ids.includes(cid)) return real(ids, window, resume);
      throw historySearchFailed();
    };
    await h.run(5 * 60_000); // the stuck search's follow-ups have backed off to the periodic run
    expect(h.engine.liveOrders().find((o) => o.clientOrderId === cid)?.state).toBe("unknown");

    // A cancel whose answer is lost, its lookup failing once: a blip.
    const { seenAt, endedAt, lookupsLeft } = await cancelInDoubt(h, a, 1);
    expect(lookupsLeft).toBe(0);
    expect(seenAt).toBeDefined();
    expect(endedAt).toBeDefined();
    expect((endedAt ?? Number.POSITIVE_INFINITY) - (seenAt ?? 0)).toBeLessThanOrEqual(3_000);
    await h.engine.stop("test", 5_000);
  });
});
