import { describe, expect, it } from "vitest";
import { EMPTY_ACCOUNT } from "../../../src/execution/inventory-math.js";
import { Harness, oldClientOrderId, T0 } from "./support/harness.js";
import { refuse } from "./support/stop-rig.js";

/*
 * The exit-3 line of a stop whose key cannot read the open orders counts, besides the orders this
 * run believes open, the earlier runs' orders the journal lists as possibly resting, less those the
 * engine holds (StopCount.held: adopted, live or ended — its own count has them). `held` was read
 * from the order store at the stop, so an adopted earlier order that ended (cancelled by this run)
 * and was then pruned (pruneAfterMs) was no longer held and was counted again as the journal's:
 * an overcount. The engine now remembers every earlier-run order it has held.
 */

const YES = "11"; // the Harness's first token
// The venue numbers its orders: the two leftovers placed first are these.
const KEEP = "o-000000001";
const STALE = "o-000000002";

function restarted(): Harness {
  const restore = {
    accounts: new Map([[YES, EMPTY_ACCOUNT]]),
    orders: new Map([
      [KEEP, oldClientOrderId(YES, "buy", 1)],
      [STALE, oldClientOrderId(YES, "sell", 2)],
    ]),
    orderFills: [],
    ordersSinceMs: T0 - 3_600_000,
  };
  return new Harness({
    options: { startupPolicy: "adopt", pruneAfterMs: 5_000, reconcileIntervalMs: 2_000, restore },
  });
}

/** Every request of the key is refused (401 api_key_revoked): the stop's count is the engine's belief. */
function revoke(h: Harness): void {
  refuse(h, ["cancel", "cancel_all", "open_orders"], {
    code: "api_key_revoked",
    message: "revoked",
    httpStatus: 401,
  });
}

describe("engine stop, count believed: earlier runs' orders the engine held", () => {
  it("an adopted earlier order that ended and was pruned before the stop is still held", async () => {
    const h = restarted();
    expect(h.leftover(YES, "buy", "0.47", oldClientOrderId(YES, "buy", 1))).toBe(KEEP); // the desired bid
    expect(h.leftover(YES, "sell", "0.60", oldClientOrderId(YES, "sell", 2))).toBe(STALE); // mispriced
    h.crowdQuote(YES, "0.48", "0.52");
    await h.engine.start();
    await h.run(1_000);
    expect(h.eventsOf("started")[0]).toMatchObject({ adopted: 2 });
    // The stale ask was cancel-replaced: ended, it leaves the store at a reconcile once 5 s old.
    expect(h.botOrders(YES).map((o) => o.id)).not.toContain(STALE);
    await h.run(10_000);
    expect(h.engine.liveOrders().map((o) => o.orderId)).toContain(KEEP);
    revoke(h);
    const stopping = h.engine.stop("api_key_revoked", 3_000);
    await h.run(3_000);
    const left = await stopping;
    // The kept bid and this run's ask, believed open.
    expect(left).toMatchObject({ openOrders: 2, believed: true });
    // Was: only KEEP, so STALE counted again as the journal's (DaemonRun's withResting).
    expect([...(left.held ?? [])].sort()).toEqual([KEEP, STALE]);
  });
});
