import { describe, expect, it } from "vitest";
import { DAEMON_EXIT } from "../../../src/app/outcome.js";
import { ExchangeError } from "../../../src/exchange/exchange-error.js";
import { stoppedRun } from "./stopped-run.js";

/*
 * review19-r3a: exit 3's "what still rests" (bd294b4) adds, to a believed count, the journal's
 * `restore.orders.size` — the orders earlier runs may have left, as read when this run OPENED the
 * journal. That snapshot never shrinks: the start-up reconcile cancels (or adopts) them and
 * closeGoneOrders journals those the exchange no longer holds as closed, yet at the stop they are
 * all still named as possibly resting. A run that started with a good key, cleared an earlier run's
 * 3 orders at start-up, and had its key revoked days later (every read refused: a believed count)
 * exits with "0 order(s) this run believes open and 3 an earlier run left (by the journal) may still
 * rest on the exchange" — a false alarm sending the operator to cancel orders that are gone. (With
 * reconcile.onStart adopt, the adopted ones are in the believed count AND the journal's: counted twice.)
 */

const revoked = new ExchangeError({
  code: "api_key_revoked",
  message: "api key revoked",
  outcome: "rejected",
  endpoint: "GET /api/orders/open",
  httpStatus: 401,
});

describe("review r3a: exit 3's journal count of earlier runs' orders", () => {
  it("leaves out the restored orders the run already found gone and journaled closed", async () => {
    // 3 orders restored; all 3 found gone after the start-up reconcile cancelled them (goneClosed 3).
    const r = stoppedRun({ openOrders: 0, believed: true }, 3, 3);
    r.unauthorized(revoked);
    const outcome = await r.done;
    expect(outcome.exitCode).toBe(DAEMON_EXIT.fatal);
    // Was: resting { open: 0, believed: true, journaled: 3 }.
    expect(outcome.resting?.journaled ?? 0).toBe(0);
  });
});
