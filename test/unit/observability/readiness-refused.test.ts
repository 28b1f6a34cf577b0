import { describe, expect, it } from "vitest";
import { BookTracker } from "../../../src/book/tracker.js";
import { SimClock } from "../../../src/core/sim-clock.js";
import type { EngineStatus } from "../../../src/engine/engine-api.js";
import { readinessOf } from "../../../src/observability/readiness.js";

// Review 16 (observability) found /ready counting only the tracker's tracked tokens, and a token whose
// token_book subscription the exchange refused for good is untracked (BookTracker.refuse drops it,
// remembering it in refused()). So a run with a configured book refused at start — a typo'd token
// id answered invalid_params — reports ready (200) while that token is never quoted, and a run
// whose every book was refused is "ready" quoting nothing. The README promises 503 "until ...
// every book it watches is synced"; the refused book is one the operator configured and the bot
// wants (mm_book_refused / MmBookRefused treat it as not quoted), not a settled market's.
const status: EngineStatus = {
  started: true,
  reconciled: true,
  quotingTokens: 1,
  openOrders: 0,
  inFlight: 0,
  killSwitch: false,
  pnlMicro: 0n,
  drawdownMicro: 0n,
};

function tracker() {
  const clock = new SimClock(1_700_000_000_000);
  const t = new BookTracker({
    clock,
    port: { requestSnapshot: () => true },
    config: { stall: { enabled: false } },
  });
  t.track("tok-a");
  t.track("tok-b");
  t.onEvent({
    type: "book_snapshot",
    tokenId: "tok-a",
    seq: 1,
    bids: [{ price: "0.50", size: "10" }],
    asks: [{ price: "0.52", size: "10" }],
  });
  return t;
}

describe("/ready with a book refused for good", () => {
  it("is not ready while a configured token's book subscription stands refused", () => {
    const t = tracker();
    t.refuse("tok-b"); // invalid_params at start: final, never retried, never quoted
    expect(t.refused()).toEqual(["tok-b"]);
    const ready = readinessOf({ trackers: [t], engine: { status: () => status } });
    const r = ready();
    expect(r.ready).toBe(false);
    expect(r.reason ?? "").toMatch(/refused/);
  });

  it("is not ready when every configured book was refused (nothing can be quoted)", () => {
    const t = tracker();
    t.refuse("tok-a");
    t.refuse("tok-b");
    const ready = readinessOf({ trackers: [t], engine: { status: () => status } });
    expect(ready().ready).toBe(false);
  });

  it("answers 200 once the refused token is subscribed again and synced, then stays latched on a later refusal", () => {
    const t = tracker();
    t.refuse("tok-b");
    const ready = readinessOf({ trackers: [t], engine: { status: () => status } });
    expect(ready().reason).toMatch(/^books refused: 1;/);
    t.track("tok-b"); // subscribed again
    t.onEvent({
      type: "book_snapshot",
      tokenId: "tok-b",
      seq: 1,
      bids: [{ price: "0.40", size: "10" }],
      asks: [{ price: "0.42", size: "10" }],
    });
    expect(ready()).toEqual({ ready: true });
    t.refuse("tok-a"); // refused on a later resubscribe: mm_book_refused / MmBookRefused show it
    expect(ready()).toEqual({ ready: true });
  });
});
