import { existsSync } from "node:fs";
import { SETTLED_MARKET_STATUSES } from "../core/types.js";
import { JournalError } from "../journal/errors.js";
import { openJournalDb } from "../journal/open.js";
import { type JournaledSettlement, readSettlements } from "../journal/settlements.js";
import type { MockExchange } from "../mock/mock-exchange.js";
import type { Logger } from "../observability/logger.js";

/**
 * Settles on a fresh paper mock the markets that earlier runs on the same journal (same `account`:
 * the mock's URL, so the same port, and the paper wallet) saw settle, before the daemon starts. A
 * paper run with a kept journal.path restores their positions, but its mock starts from the scenario,
 * which lists such a market OPEN again: the restored position was marked at a mid instead of its
 * payout, and the market quoted again. Resolved with the journaled payouts through the mock's admin
 * (holders redeemed, as at the first resolution), or voided; logged once per market at info. What
 * the mock cannot reproduce (payouts that name no single winner, a resolution whose payouts never
 * came) is left as the scenario has it, with a warning. No file yet, or one the daemon will refuse
 * (its schema too new…): nothing to do here, the daemon's start reports the file.
 * @returns how many markets were settled on the mock
 */
export function settleFromJournal(mock: MockExchange, path: string, account: string, logger: Logger): number {
  if (!existsSync(path)) return 0;
  let settled: JournaledSettlement[];
  try {
    // This open runs the WAL's recovery, so it is the one to say what a power loss rolled back.
    const db = openJournalDb(path, {
      mustExist: true,
      warn: (fields, message) => logger.warn(fields, message),
    });
    try {
      settled = readSettlements(db, account);
    } finally {
      db.close();
    }
  } catch (err) {
    if (err instanceof JournalError) return 0;
    throw err;
  }
  let n = 0;
  for (const s of settled) if (settleOne(mock, s, logger)) n++;
  return n;
}

function settleOne(mock: MockExchange, s: JournaledSettlement, logger: Logger): boolean {
  const m = mock.context.markets.byId(s.marketId);
  const now = mock.context.venue.market(s.marketId)?.status;
  if (m === undefined || now === undefined || SETTLED_MARKET_STATUSES.has(now)) return false;
  const fields = { marketId: m.id, slug: m.slug, status: s.status, payouts: s.payouts };
  if (s.status === "VOIDED") {
    mock.admin.setMarketStatus(m.id, "VOIDED", { cancelOpenOrders: true });
  } else {
    const winner = s.status === "RESOLVED" ? winnerOf(s.payouts) : undefined;
    if (winner === undefined) {
      logger.warn(
        fields,
        `paper: market ${m.slug} settled in an earlier run on this journal, but the mock cannot settle it as journaled (${s.status}, payouts ${JSON.stringify(s.payouts ?? null)}): it is ${now} on this mock, and a position carried in it is marked at the mid`,
      );
      return false;
    }
    mock.admin.resolveMarket(m.id, winner);
  }
  logger.info(
    fields,
    `paper: market ${m.slug} ${s.status === "VOIDED" ? "voided" : "resolved"} in an earlier run on this journal: ${s.status === "VOIDED" ? "voided" : "resolved with the same payouts"} on this mock too, so a position carried in it is marked ${s.status === "VOIDED" ? "at its last journaled mark (a voided market has no payouts)" : "at its payout"}`,
  );
  return true;
}

/** YES or NO when the payouts pay one outcome of the two and not the other (what the mock can pay). */
function winnerOf(payouts: Readonly<Record<string, string>> | undefined): "YES" | "NO" | undefined {
  if (payouts === undefined) return undefined;
  const paid = (i: string) => (payouts[i] === undefined ? undefined : /[1-9]/.test(payouts[i] ?? ""));
  const yes = paid("0");
  const no = paid("1");
  if (yes === true && no === false) return "YES";
  if (yes === false && no === true) return "NO";
  return undefined;
}
