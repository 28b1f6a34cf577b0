import type { ClientIdSearch } from "../../../src/execution/history-search.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { JournalRecorder } from "../../../src/journal/recorder.js";
import { readRestore } from "../../../src/journal/restore.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import { memoryLogger } from "../../integration/daemon/support.js";
import { Harness } from "../engine/support/harness.js";
import { ambiguousBid } from "../engine/support/harness-records.js";
import { ACCOUNT, journalPath } from "./support.js";

/**
 * A Harness journaling into a real SQLite file (run "t1"); `restoreNow()` is what restore offers a
 * run starting now (this one killed): the unanswered placements and resting orders.
 */
export function journaledHarness() {
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
  const restoreNow = () => {
    const next = writer.beginRun({ account: ACCOUNT, session: "t2", atMs: h.clock.now(), tokens: [] });
    return readRestore(db, ACCOUNT, next);
  };
  return { h, db, restoreNow };
}

/**
 * A started Harness journaling into a real SQLite file, whose next placement is answered ambiguously
 * (`place.reaching`: it reached the venue, and no reconcile ran yet: ambiguousBid).
 */
export async function journaledRun(
  search?: (ids: readonly string[]) => ClientIdSearch | undefined,
  place: { reaching?: boolean } = {},
) {
  const { h, db, restoreNow } = journaledHarness();
  if (search !== undefined) {
    const real = h.exchange.ordersByClientId.bind(h.exchange);
    h.exchange.ordersByClientId = async (ids, window, resume) => search(ids) ?? real(ids, window, resume);
  }
  const cid = await ambiguousBid(h, place);
  return { h, db, cid, restoreNow };
}
