import { describe, expect, it } from "vitest";
import { startDaemon } from "../../../src/app/daemon.js";
import { readinessOf } from "../../../src/observability/readiness.js";
import { daemonConfig, daemonSlots, market, memoryLogger, SCENARIO, startMock, waitFor } from "./support.js";

const ARG = market("arg-vs-fra-final-arg-win");

const slots = daemonSlots();

/**
 * A market listed settled at start is not subscribed, so a daemon whose markets are all settled (a
 * restart after they resolved, kept up for the redemptions and the reconcile) tracks no book at all.
 * /ready is 200 once the engine has started and reconciled: every book it watches (none) is synced.
 * (A review found it answering 503 "no book tracked" for ever.)
 */
describe("/ready when every market is listed settled at start", () => {
  it("is ready once the engine has started and reconciled", async () => {
    const scenario = {
      ...SCENARIO,
      markets: SCENARIO.markets.map((x) => (x.slug === ARG.slug ? { ...x, status: "RESOLVED" as const } : x)),
    };
    const m = await startMock(scenario);
    slots.mock = m;
    const daemon = await startDaemon(daemonConfig(m, [ARG.slug], {}, scenario), {
      logger: memoryLogger("warn").logger,
    });
    slots.daemon = daemon;
    await waitFor(() => daemon.engine.status().reconciled, 5_000, "the account reconciled");
    const ready = readinessOf({ trackers: [daemon.feeds.market.tracker], engine: daemon.engine });
    await waitFor(() => ready().ready, 3_000, "/ready 200").catch(() => undefined);
    expect(ready()).toEqual({ ready: true });
  });
});
