import { describe, expect, it } from "vitest";
import type { PlaceOrderRequest } from "../../../src/core/types.js";
import { ExchangeError } from "../../../src/exchange/exchange-error.js";
import type { PlaceOrderOutcome } from "../../../src/exchange/place-outcome.js";
import { Harness } from "./support/harness.js";

/**
 * A placement answered 429 goes back into the queue once (it did not take effect), checked against
 * `stillDesired` only at that moment. The store holds it as sent (`placing`, queued=false): the
 * order manager neither supersedes nor cancels it, and a token or market gate's cancelAllFor /
 * cancelMarket skips it. So whatever the engine decides during the Retry-After, the old request is
 * sent when the block ends: at its old price, onto a book that moved, or while the token is gated.
 */
describe("flow: a placement re-queued after a 429 is sent after the engine's newer decision", () => {
  it("is not sent at its old price once the market has moved through it (no taker fill)", async () => {
    const h = new Harness();
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);

    const limited = limitNextPlacement(h, 2_000);
    h.crowdQuote(yes, "0.52", "0.56"); // mid 0.54: bid 0.47 → 0.51 (4 ticks, not a calm requote)
    await h.run();
    const coid = limited();
    expect(coid).toContain("-b0-"); // the bid 0.51 was answered 429 and waits 2 s in the queue
    h.crowdQuote(yes, "0.30", "0.34"); // the market falls: the strategy now wants a bid at 0.29
    await h.run(100);
    expect(h.fills).toEqual([]);

    await h.run(5_000); // the Retry-After ends
    // Today the bid 0.51 leaves at +2 s, through the crowd's ask 0.34, and buys 10 as a taker.
    expect(h.fills.map((f) => `${f.side} ${f.priceMicro} ${f.sizeMicro}`)).toEqual([]);
    const sent = h.eventsOf("place_sent").filter((e) => e.clientOrderId === coid);
    expect(sent).toHaveLength(1); // only its first send, before the market fell
  });

  it("is not sent while its token is gated (book resyncing)", async () => {
    const h = new Harness();
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    const limited = limitNextPlacement(h, 2_000);
    h.crowdQuote(yes, "0.52", "0.56");
    await h.run();
    const coid = limited();
    // The book gaps and stays resyncing: the token is gated, its quotes are to be cancelled.
    h.holdSnapshots = true;
    h.tracker.onEvent({ type: "book_delta", tokenId: yes, seq: 10_000, prevSeq: 9_999, changes: [] });
    await h.run(100);
    expect(h.logs.records().some((r) => r.msg === "risk: book_resyncing" && r.tokenId === yes)).toBe(true);
    const from = h.clock.now();
    await h.run(5_000);
    const sentWhileGated = h.eventsOf("place_sent").filter((e) => e.atMs >= from);
    // Today the 429'd bid (sent state in the store, so cancelAllFor skips it) leaves at +2 s.
    expect(sentWhileGated.map((e) => e.clientOrderId)).toEqual([]);
    expect(h.botQuotes(yes)).toEqual([]);
    expect(coid).toContain("-b0-");
  });
});

/** Answers the next placement 429 with this Retry-After; later ones reach the venue. */
function limitNextPlacement(h: Harness, retryAfterMs: number): () => string {
  const inner = h.exchange.place.bind(h.exchange);
  let limited: string | undefined;
  h.exchange.place = (req: PlaceOrderRequest): Promise<PlaceOrderOutcome> => {
    if (limited !== undefined) return inner(req);
    limited = req.clientOrderId ?? "";
    const error = new ExchangeError({
      code: "rate_limited",
      message: "rate limited",
      outcome: "retryable",
      endpoint: "POST /api/orders/place",
      httpStatus: 429,
      retryAfterMs,
    });
    return Promise.resolve({ kind: "rejected", code: "rate_limited", retryable: true, error });
  };
  return () => limited ?? "";
}
