import type { Database, Statement } from "better-sqlite3";
import { ENDING_CANCELS, MAY_REST, UNANSWERED, UNCLEAN_RUN } from "./may-rest.js";

/**
 * The tables retention deletes from, in the order a pass visits them: outcomes before intents, since
 * an intent is kept as long as its accepted placement is. runs, tokens, fills and fees are never
 * pruned, nor accounts rows other than snapshots. An intent never outlives the last row that answered
 * it (ANSWER_ROW: the outcomes step deletes it with that row), so an intent left without an answer is
 * one that never had one (UNANSWERED) — kept while its run may have left it resting.
 */
export const PRUNED_TABLES = ["outcomes", "intents", "unsent", "accounts", "pnl"] as const;
export type PrunedTable = (typeof PRUNED_TABLES)[number];

/** One step of a pass over a table. */
export interface PruneChunk {
  /** The last id examined: the next step starts after it. */
  readonly afterId: number;
  readonly deleted: number;
  /** True once the table holds nothing more older than the cutoff to look at. */
  readonly done: boolean;
}

const HOUR_MS = 3_600_000;

/**
 * SQL condition: the `outcomes` row `o` answers its placement for UNANSWERED — an `accepted` or
 * `rejected` place, or a cancel that ended it.
 */
const ANSWER_ROW = `((o.op = 'place' AND o.outcome IN ('accepted', 'rejected'))
  OR (o.op = 'cancel' AND o.outcome IN ${ENDING_CANCELS}))`;

/**
 * Deletes, after an answer row of @cid went, the intents of @cid no remaining row answers: kept, they
 * would read as never answered (UNANSWERED), be kept for good and be looked up again at each start.
 * Such an intent is older than the answer row, hence than the cutoff.
 */
const ORPHANED_INTENTS = `DELETE FROM intents WHERE client_order_id = @cid AND NOT EXISTS (
  SELECT 1 FROM outcomes o WHERE o.client_order_id = intents.client_order_id AND ${ANSWER_ROW})`;

/**
 * Per table: its rows after @after in id order (ids grow with time), each with the time that ages it
 * (`t`) and whether it must stay (`keep`), computed only for rows older than @cutoff.
 */
const SELECT: Record<PrunedTable, string> = {
  // Restore reads the placements a run that did not stop cleanly may have left resting; the running
  // run counts as such (it may yet be killed).
  outcomes: `SELECT o.id, o.at_ms AS t, CASE WHEN o.at_ms < @cutoff THEN (${UNCLEAN_RUN} AND ${MAY_REST}) END AS keep,
               CASE WHEN ${ANSWER_ROW} THEN o.client_order_id END AS cid
             FROM outcomes o JOIN runs r ON r.run_id = o.run_id WHERE o.id > @after ORDER BY o.id LIMIT @limit`,
  // An unanswered placement (UNANSWERED) of a run that did not stop cleanly stays until a start (or
  // its own run's reconcile) answers it: restore offers it for the start-up search by clientOrderId,
  // and without its intent a fill it made while mm was down would be lost into the baseline.
  intents: `SELECT i.id, i.at_ms AS t, CASE WHEN i.at_ms < @cutoff THEN (EXISTS (
              SELECT 1 FROM outcomes p WHERE p.client_order_id = i.client_order_id AND p.run_id = i.run_id
                AND p.op = 'place' AND p.outcome = 'accepted') OR (${UNCLEAN_RUN} AND ${UNANSWERED})) END AS keep
            FROM intents i JOIN runs r ON r.run_id = i.run_id WHERE i.id > @after ORDER BY i.id LIMIT @limit`,
  unsent: `SELECT id, hour_ms + ${HOUR_MS} AS t, 0 AS keep FROM unsent WHERE id > @after ORDER BY id LIMIT @limit`,
  // A snapshot row goes when it is not its (run, token)'s last row (restore and mm report's open
  // positions read the last ones) and realised nothing (mm report dates realised PnL by the row
  // that first shows it): mm report's figures are the same before and after.
  accounts: `SELECT a.id, a.at_ms AS t, CASE WHEN a.at_ms < @cutoff THEN (
               NOT EXISTS (SELECT 1 FROM accounts b WHERE b.run_id = a.run_id AND b.token_id = a.token_id AND b.id > a.id)
               OR a.realised_pico <> coalesce((SELECT p.realised_pico FROM accounts p WHERE p.run_id = a.run_id
                    AND p.token_id = a.token_id AND p.id < a.id ORDER BY p.id DESC LIMIT 1), '0')) END AS keep
             FROM accounts a WHERE a.reason = 'snapshot' AND a.id > @after ORDER BY a.id LIMIT @limit`,
  // The account's newest snapshot carrying the kill switch's drawdown stays: the next run starts with
  // that drawdown used (readCarriedDrawdown), and with journal.snapshotIntervalMs 0 a flat drawdown
  // sits in one row for days. A later such row of the account is most often the next one, so the
  // NOT EXISTS stops early; only the newest rows scan to the end.
  pnl: `SELECT p.id, p.at_ms AS t, CASE WHEN p.at_ms < @cutoff THEN (p.reason <> 'snapshot' OR (
          p.drawdown_micro IS NOT NULL AND NOT EXISTS (
            SELECT 1 FROM pnl q JOIN runs qr ON qr.run_id = q.run_id
            WHERE q.id > p.id AND q.drawdown_micro IS NOT NULL AND qr.account = r.account))) END AS keep
        FROM pnl p JOIN runs r ON r.run_id = p.run_id WHERE p.id > @after ORDER BY p.id LIMIT @limit`,
};

interface Candidate {
  readonly id: bigint | number;
  readonly t: bigint | number;
  readonly keep: bigint | number | null;
  /** outcomes: the clientOrderId of an answer row (ANSWER_ROW), whose orphaned intents go with it. */
  readonly cid?: string | null;
}

/**
 * Deletes the journal's audit rows older than a cutoff, a bounded chunk at a time, never what a
 * restart restores or what `mm report` adds up: intents and outcomes (except placements that may still
 * rest, MAY_REST, and their intents, and placements sent without an answer, UNANSWERED, by a run that
 * did not stop cleanly), counts of unsent intents, account snapshots that realised
 * nothing and are not their run's last row of the token, and PnL snapshots (but each account's newest
 * one carrying the kill switch's drawdown, which a restart carries). Fills, fees, the other
 * account rows, runs and tokens stay. Each pass walks each table from its first row, so a row kept
 * once (an order that rested) is looked at again, and goes once it no longer needs to stay; the walk
 * stops at the first row newer than the cutoff (ids grow with time).
 * @example const p = new JournalPruner(db); p.pass(clock.now() - 7 * 86_400_000);
 */
export class JournalPruner {
  readonly #db: Database;
  readonly #select: Record<PrunedTable, Statement>;
  readonly #delete: Record<PrunedTable, Statement>;
  readonly #orphans: Statement;

  constructor(db: Database) {
    this.#db = db;
    const sel = {} as Record<PrunedTable, Statement>;
    const del = {} as Record<PrunedTable, Statement>;
    for (const t of PRUNED_TABLES) {
      sel[t] = db.prepare(SELECT[t]);
      del[t] = db.prepare(`DELETE FROM ${t} WHERE id = ?`);
    }
    this.#select = sel;
    this.#delete = del;
    this.#orphans = db.prepare(ORPHANED_INTENTS);
  }

  /**
   * Looks at up to `maxRows` rows of `table` after id `afterId` and deletes, in one transaction, those
   * older than `cutoffMs` that need not stay.
   */
  chunk(table: PrunedTable, cutoffMs: number, afterId: number, maxRows: number): PruneChunk {
    const doomed: (bigint | number)[] = [];
    const answered = new Set<string>();
    let last = afterId;
    let seen = 0;
    let reachedCutoff = false;
    // Lazily, so the keep test runs only on the rows actually looked at.
    for (const c of this.#select[table].iterate({
      after: afterId,
      cutoff: Math.floor(cutoffMs),
      limit: maxRows,
    }) as Iterable<Candidate>) {
      if (Number(c.t) >= cutoffMs) {
        reachedCutoff = true;
        break;
      }
      seen++;
      last = Number(c.id);
      // NULL (SQL's unknown) keeps nothing, as restore's WHERE would not return the row either.
      if (Number(c.keep ?? 0) !== 1) {
        doomed.push(c.id);
        if (c.cid !== undefined && c.cid !== null) answered.add(c.cid);
      }
    }
    let deleted = doomed.length;
    if (doomed.length > 0) {
      const del = this.#delete[table];
      this.#db.transaction(() => {
        for (const id of doomed) del.run(id);
        // In the same commit: a kill between the two would leave answered intents reading as unanswered.
        for (const cid of answered) deleted += this.#orphans.run({ cid }).changes;
      })();
    }
    return { afterId: last, deleted, done: reachedCutoff || seen < maxRows };
  }

  /** A whole pass over every pruned table, synchronously; returns the rows deleted. */
  pass(cutoffMs: number, maxRows = 2_000): number {
    let deleted = 0;
    for (const table of PRUNED_TABLES) {
      let after = 0;
      for (;;) {
        const c = this.chunk(table, cutoffMs, after, maxRows);
        deleted += c.deleted;
        after = c.afterId;
        if (c.done) break;
      }
    }
    return deleted;
  }
}
