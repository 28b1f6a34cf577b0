import { describe, expect, it } from "vitest";
import { ExchangeError } from "../../../src/exchange/exchange-error.js";
import type { PlaceOrderOutcome } from "../../../src/exchange/place-outcome.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { JournalRecorder } from "../../../src/journal/recorder.js";
import { readRestore } from "../../../src/journal/restore.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import { memoryLogger } from "../../integration/daemon/support.js";
import { Harness, settle } from "../engine/support/harness.js";
import { ACCOUNT, journalPath } from "../journal/support.js";

/*
 * review18 r2-exec. a62bd7a journals an ambiguous placement answered when its user_fill binds it —
 * but only when the fill comes AFTER the ambiguous answer (unansweredNamed: state "unknown", no
 * orderId). The common way to get an ambiguous placement that reached the book is a timeout: the
 * order crossed, its user_fill arrived over the WebSocket, and the HTTP answer was lost. Then the
 * fill binds the order while it is still `placing` (filled whole: state `filled`), the ambiguous
 * answer changes nothing (transition: filled stays filled), `place_outcome` ambiguous is journaled
 * and PlacementAnswers.ambiguous() remembers it — and nothing answers it: no search (it has an id),
 * no fill-answer (the fill came first), and bindLive forgets it (not live). Its intent stays
 * unanswered for the whole run and the next start after a crash searches the history for it.
 */
function ambiguousOutcome(): PlaceOrderOutcome {
  const error = new ExchangeError({
    code: "request_timeout",
    message: "no answer within the timeout",
    outcome: "ambiguous",
    endpoint: "POST /api/orders/place",
  });
  return { kind: "ambiguous", error };
}

describe("journal: a placement filled over the WebSocket before its answer timed out", () => {
  it("is journaled answered (accepted, closed FILLED), so a restart does not search for it", async () => {
    const db = openJournalDb(journalPath());
    const writer = new JournalWriter(db);
    let rec: JournalRecorder | undefined;
    const h = new Harness({ onEvent: (e) => rec?.onEvent(e) });
    const run = writer.beginRun({ account: ACCOUNT, session: "t1", atMs: h.clock.now(), tokens: [] });
    rec = new JournalRecorder({
      writer,
      run,
      clock: h.clock,
      logger: memoryLogger("error").logger,
      snapshotIntervalMs: 0,
    });
    rec.attach(h.engine);
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();

    // The next placement reaches the venue, is taken whole at once (its user_fill delivered), and
    // only then is its HTTP answer lost.
    const real = h.exchange.place.bind(h.exchange);
    let target: string | undefined;
    h.exchange.place = async (req) => {
      if (target !== undefined) return real(req);
      target = req.clientOrderId;
      const out = await real(req);
      if (out.kind !== "accepted") throw new Error(`placement not accepted: ${out.kind}`);
      h.take(yes, req.side === "buy" ? "sell" : "buy", req.price, String(100 + Number(req.quantity)));
      await settle(); // the user_fill reaches the engine (a microtask)
      return ambiguousOutcome();
    };
    h.crowdQuote(yes, "0.50", "0.54");
    await h.run();
    const cid = target;
    expect(cid).toBeDefined();
    const fill = h.eventsOf("fill").find((e) => e.fill.clientOrderId === cid);
    expect(fill?.source).toBe("stream");
    expect(h.eventsOf("place_outcome").find((e) => e.intent.clientOrderId === cid)?.outcome).toBe(
      "ambiguous",
    );

    await h.run(5_000); // reconciles come and go
    const next = writer.beginRun({ account: ACCOUNT, session: "t2", atMs: h.clock.now(), tokens: [] });
    const restore = readRestore(db, ACCOUNT, next);
    // Fails: only the `ambiguous` row is journaled, so the next start searches for it.
    expect(restore.unanswered.has(cid ?? "")).toBe(false);
    db.close();
  });
});
