/*
 * A process holding a journal account's run lock, for account-lock.test.ts: takes the lock for
 * argv[2] (journal) and argv[3] (account), records run 42, says "held" on stdout, then waits to be
 * killed (SIGKILL: it never releases the lock itself, as a crashed daemon does not).
 */
import { lockJournalAccount } from "../../../src/journal/account-lock.js";

const [journal = "", account = ""] = process.argv.slice(2);
const lock = lockJournalAccount(journal, account, { session: "child", atMs: Date.UTC(2025, 5, 1, 12) });
lock.setRun(42);
process.stdout.write("held\n");
setInterval(() => undefined, 60_000);
