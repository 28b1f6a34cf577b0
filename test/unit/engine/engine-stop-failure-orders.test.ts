import { describe, expect, it } from "vitest";
import { sleep } from "../../../src/core/clock.js";
import { ExchangeError } from "../../../src/exchange/exchange-error.js";
import { Harness } from "../engine/support/harness.js";
import { THREE_BANDS } from "../engine/support/stop-rig.js";

/*
 * The stop's order of requests (engine-lifecycle.ts cancelEverything: the kill switch's batch, which
 * drops queued placements unsent, before the market cancel-alls) under every way the cancel-all can
 * go: answered, refused 501 or 400, answered ambiguously (504), or turned off by configuration; with
 * a requote wave's placements queued at the stop and, in half the cases, some still in flight (a
 * slow place). Each must end with nothing of ours resting on the venue, the stop counting 0, and no
 * failed cancel (a queued placement cancelled without an exchange id was refused order_id_unknown).
 * rateLimitPerMin 60 keeps placements queued; it also makes the wallet's cancel bucket 2/s, so the
 * stop is given room for single cancels of every order.
 */
type Mode = "ok" | "501" | "400" | "ambiguous" | "off";
const modes: Mode[] = ["ok", "501", "400", "ambiguous", "off"];

function rig(mode: Mode, slowPlace: boolean) {
  const h = new Harness({
    markets: 2,
    strategy: THREE_BANDS,
    options: { rateLimitPerMin: 60, ...(mode === "off" ? { queue: { cancelAllAvailable: false } } : {}) },
  });
  if (mode !== "ok" && mode !== "off") {
    h.exchange.cancelAll = async () => {
      h.exchange.calls.push({ op: "cancel_all", atMs: h.clock.now(), arg: "refused" });
      throw new ExchangeError({
        code: mode === "501" ? "not_implemented" : mode === "400" ? "invalid_request" : "timeout",
        message: "no",
        outcome: mode === "ambiguous" ? "ambiguous" : "rejected",
        endpoint: "POST /api/orders/cancel-all",
        httpStatus: mode === "501" ? 501 : mode === "400" ? 400 : 504,
      });
    };
  }
  if (slowPlace) {
    const place = h.exchange.place.bind(h.exchange);
    h.exchange.place = async (req) => {
      await sleep(h.clock, 300);
      return place(req);
    };
  }
  return h;
}

describe("engine stop: every way the cancel-all can go leaves nothing open", () => {
  for (const mode of modes)
    for (const slow of [false, true])
      it(`cancel-all ${mode}, placements ${slow ? "in flight" : "answered"} at the stop`, async () => {
        const h = rig(mode, slow);
        for (let i = 1; i <= 2; i++) for (const t of h.tokens(i)) h.crowdQuote(t, "0.40", "0.60");
        await h.engine.start();
        await h.run(slow ? 5_500 : 5_000);
        // a requote wave: some placements queued, some in flight, some open
        for (let i = 1; i <= 2; i++) for (const t of h.tokens(i)) h.crowdQuote(t, "0.43", "0.63");
        await h.run(50);
        // Stop once placements wait in the queue and, in the slow cases, some are in flight too.
        const ready = () => {
          const st = h.engine.status();
          return (st.queuedPlacements ?? 0) > 0 && (!slow || st.inFlight > 0);
        };
        for (let k = 0; k < 500 && !ready(); k++) await h.run(25);
        expect(ready()).toBe(true);
        const stopping = h.engine.stop("SIGINT", 40_000);
        await h.run(40_000);
        const r = await stopping;
        expect(h.botOrders()).toEqual([]);
        expect(r).toEqual({ openOrders: 0 });
        const failed = h.eventsOf("cancel_outcome").filter((e) => e.outcome === "failed");
        expect(failed).toEqual([]);
        expect(h.logs.text()).not.toContain("order_id_unknown");
      });
});
