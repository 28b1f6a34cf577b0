import { describe, expect, it } from "vitest";
import { ExchangeError } from "../../../src/exchange/exchange-error.js";
import { Harness } from "./support/harness.js";
import { ambiguousBid } from "./support/harness-records.js";

/*
 * From review 20 (rexec), 56729f6 against 3c216b1. The follow-up backoff of orders left in doubt by a
 * failed read is one counter for the whole scheduler (ReconcileScheduler.#stalls), not per read.
 * While one unknown placement's history search keeps failing (backed off to the periodic run), a
 * cancel whose answer is lost and whose lookup fails once — a blip, its first failure — inherits
 * that backoff: the order (gone on the exchange) is held live, its level blocked and its exposure
 * counted, until the next periodic run, up to reconcile.intervalMs later, instead of the 2 s
 * follow-up 3c216b1 gave it. Only a read that *keeps* failing should be asked at the periodic pace.
 */

const lost = (endpoint: string) =>
  new ExchangeError({ code: "request_timeout", message: "no answer", outcome: "ambiguous", endpoint });

describe("review rexec: a new cancel in doubt while another search is stuck", () => {
  it("is followed up after retryMs at its first failed lookup, not at the stuck search's backed-off pace", async () => {
    const h = new Harness(); // reconcile every 30 s, follow-ups 2 s
    const [a] = h.tokens();
    h.crowdQuote(a, "0.48", "0.52");
    const cid = await ambiguousBid(h);
    const real = h.exchange.ordersByClientId.bind(h.exchange);
    h.exchange.ordersByClientId = async (ids, window, resume) => {
      if (!ids.includes(cid)) return real(ids, window, resume);
      throw new ExchangeError({
        code: "internal_error",
        message: "upstream failed",
        outcome: "ambiguous",
        endpoint: "GET /api/orders/history",
        httpStatus: 500,
      });
    };
    await h.run(5 * 60_000); // the stuck search's follow-ups have backed off to the periodic run
    expect(h.engine.liveOrders().find((o) => o.clientOrderId === cid)?.state).toBe("unknown");

    const cancel = h.exchange.cancel.bind(h.exchange);
    let doubted: string | undefined;
    h.exchange.cancel = async (orderId) => {
      if (doubted !== undefined) return cancel(orderId);
      doubted = orderId;
      await cancel(orderId);
      throw lost("POST /api/orders/cancel");
    };
    const order = h.exchange.order.bind(h.exchange);
    let blips = 1;
    h.exchange.order = async (orderId) => {
      if (orderId === doubted && blips > 0) {
        blips--;
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
    expect(blips).toBe(0);
    expect(seenAt).toBeDefined();
    expect(endedAt).toBeDefined();
    expect((endedAt ?? Number.POSITIVE_INFINITY) - (seenAt ?? 0)).toBeLessThanOrEqual(3_000);
    await h.engine.stop("test", 5_000);
  });
});
