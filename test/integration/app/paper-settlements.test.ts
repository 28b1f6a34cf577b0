import { describe, expect, it } from "vitest";
import { settleFromJournal } from "../../../src/app/paper-settlements.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import { createMockExchange } from "../../../src/mock/mock-exchange.js";
import { journalPath } from "../../unit/journal/support.js";
import { market, memoryLogger, SCENARIO } from "../daemon/support.js";

const ACCOUNT = "http://127.0.0.1:1|0xabc";
const ARG = market("arg-vs-fra-final-arg-win");
const FRA = market("arg-vs-fra-final-fra-win");
const OVER = market("arg-vs-fra-final-over-2-5");

/**
 * paper-settlements.ts settles on a fresh mock what the journal's runs of the same account saw
 * settle: NO winning, a void; and leaves (with a warning) what the mock cannot pay as journaled.
 */
describe("a fresh paper mock settled from the journal", () => {
  it("resolves with the journaled winner, voids a void, warns about payouts the mock cannot pay", async () => {
    const path = journalPath();
    const db = openJournalDb(path);
    const w = new JournalWriter(db);
    const run = w.beginRun({ account: ACCOUNT, session: "s1", atMs: 1, tokens: [] });
    w.settlement(run, { atMs: 2, marketId: ARG.id, status: "RESOLVED", payouts: { "0": "0", "1": "1" } });
    w.settlement(run, { atMs: 3, marketId: FRA.id, status: "VOIDED", payouts: undefined });
    w.settlement(run, { atMs: 4, marketId: OVER.id, status: "RESOLVED", payouts: { "0": "1", "1": "1" } });
    const other = w.beginRun({ account: "http://127.0.0.1:2|0xabc", session: "s2", atMs: 5, tokens: [] });
    const unseen = SCENARIO.markets.find((m) => m.status === "OPEN" && ![ARG, FRA, OVER].includes(m));
    w.settlement(other, { atMs: 6, marketId: unseen?.id ?? "", status: "VOIDED", payouts: undefined });
    db.close();

    const mock = await createMockExchange({ scenario: SCENARIO, flow: false, admin: true });
    try {
      const { logger, sink } = memoryLogger("info");
      expect(settleFromJournal(mock, path, ACCOUNT, logger)).toBe(2);
      const status = (id: string) => mock.context.venue.market(id)?.status;
      expect(status(ARG.id)).toBe("RESOLVED");
      expect(mock.context.resolutions.payoutsOf(ARG.id)).toEqual(["0", "1"]);
      expect(status(FRA.id)).toBe("VOIDED");
      expect(status(OVER.id)).toBe("OPEN");
      expect(status(unseen?.id ?? "")).toBe("OPEN"); // another account's (another mock port's) run
      const warned = sink.records().filter((r) => r.level === 40);
      expect(warned.map((r) => r.slug)).toEqual([OVER.slug]);
      expect(String(warned[0]?.msg)).toContain("the mock cannot settle it as journaled");
      expect(settleFromJournal(mock, `${path}.absent`, ACCOUNT, logger)).toBe(0);
    } finally {
      await mock.close();
    }
  });
});
