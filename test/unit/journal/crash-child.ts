/**
 * Child process of crash.test.ts: journals fills through the real recorder as fast as it can, and
 * after each one returns (committed) prints its number. The parent kills it with SIGKILL mid-stream.
 * Usage: node --import tsx test/unit/journal/crash-child.ts <journal path>
 */
import { LiveClock } from "../../../src/core/live-clock.js";
import { applyTrade, EMPTY_ACCOUNT, type TokenAccount } from "../../../src/execution/inventory-math.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { JournalRecorder } from "../../../src/journal/recorder.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import { createLogger } from "../../../src/observability/logger.js";

const path = process.argv[2];
if (path === undefined) throw new Error("usage: crash-child.ts <journal path>");
const db = openJournalDb(path);
const writer = new JournalWriter(db);
const clock = new LiveClock();
const run = writer.beginRun({ account: "crash", session: "crash", atMs: clock.now(), tokens: [] });
const recorder = new JournalRecorder({
  writer,
  run,
  clock,
  logger: createLogger({ level: "error", pretty: false }),
  snapshotIntervalMs: 0,
});
let account: TokenAccount = EMPTY_ACCOUNT;
recorder.attach({
  account: () => account,
  accounts: () => [],
  status: () => ({ pnlMicro: 0n, openOrders: 0 }),
});
for (let i = 1; ; i++) {
  const fill = {
    tradeId: `t${i}`,
    orderId: `o${i}`,
    clientOrderId: undefined,
    tokenId: "tok",
    side: "buy" as const,
    priceMicro: 500_000,
    sizeMicro: 1_000_000n,
    tsMs: clock.now(),
  };
  account = applyTrade(account, "buy", fill.priceMicro, fill.sizeMicro);
  recorder.onEvent({
    type: "fill",
    atMs: fill.tsMs,
    fill,
    source: "stream",
    positionMicro: account.sizeMicro,
    pnlMicro: 0n,
  });
  if (recorder.failures > 0) process.exit(3);
  // Written to a pipe, which Node writes synchronously on Linux: the parent sees it at once.
  process.stdout.write(`${i}\n`);
}
