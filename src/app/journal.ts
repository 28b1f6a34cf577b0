import BetterSqlite3 from "better-sqlite3";
import { ConfigError } from "../config/errors.js";
import type { Clock } from "../core/clock.js";
import { publicUrl } from "../core/public-url.js";
import { weiToString } from "../core/wei.js";
import { type AccountLock, lockJournalAccount } from "../journal/account-lock.js";
import { accountName } from "../journal/account-name.js";
import { JournalError } from "../journal/errors.js";
import {
  findGoneOrders,
  type GoneCheck,
  journalGoneOrders,
  type OrderReads,
} from "../journal/gone-orders.js";
import { readMarketSlugs } from "../journal/market-slugs.js";
import { openJournalDb } from "../journal/open.js";
import { JournalRecorder } from "../journal/recorder.js";
import {
  type CarriedDrawdown,
  type JournalRestore,
  type RestoredTrip,
  readRestore,
} from "../journal/restore.js";
import { DAY_MS, JournalRetention } from "../journal/retention.js";
import { type JournalToken, JournalWriter } from "../journal/writer.js";
import type { Logger } from "../observability/logger.js";
import type { JournalSettings } from "./journal-settings.js";

/**
 * The account a run journals under, restores from and locks: the exchange's base URL in its one
 * spelling (scheme and host lowercased, default port and trailing slash dropped: accountName) and
 * the maker wallet. In paper mode the base URL is the mock's, so only runs on the same port share an
 * account.
 * @example journalAccount("HTTP://127.0.0.1:8080/", "0xAbC…") // "http://127.0.0.1:8080|0xabc…"
 */
export function journalAccount(baseUrl: string, maker: string): string {
  return accountName(baseUrl, maker);
}

/**
 * Takes the run lock of the daemon's account on its journal (lockJournalAccount), before anything is
 * sent or read: a second daemon on the same account and file would restore the live one's state as a
 * killed run's, and its start-up reconcile would cancel the live one's orders. Held until the journal
 * closes (openDaemonJournal's `lock`), or until the process dies. Another mm holding it, or a lock
 * that cannot be taken, is a ConfigError on journal.path (exit code 2) naming the account and, from
 * the holder's note, its pid, host, run, session and start.
 * @example const lock = lockDaemonJournal(settings, { baseUrl, maker, session, clock });
 */
export function lockDaemonJournal(
  settings: JournalSettings,
  ctx: { readonly baseUrl: string; readonly maker: string; readonly session: string; readonly clock: Clock },
): AccountLock {
  try {
    return lockJournalAccount(settings.path, journalAccount(ctx.baseUrl, ctx.maker), {
      session: ctx.session,
      atMs: ctx.clock.now(),
      label: journalAccount(publicUrl(ctx.baseUrl), ctx.maker),
    });
  } catch (err) {
    if (!(err instanceof JournalError)) throw err;
    const stop =
      err.code === "journal_account_in_use"
        ? "; stop that run first: a second daemon on the account would take the live one's orders for a killed run's and cancel them"
        : "";
    throw new ConfigError([{ field: "journal.path", message: `${err.message}${stop}` }]);
  }
}

/** A daemon's open journal: what it restored, the engine listener, and the file to close at the end. */
export interface DaemonJournal {
  readonly path: string;
  readonly run: number;
  readonly restore: JournalRestore;
  readonly recorder: JournalRecorder;
  /**
   * Once the engine has started (its start-up reconcile has cancelled or adopted what was open):
   * journals closed the restored orders the exchange no longer holds open (findGoneOrders), so no
   * later start restores them again. In the background: never rejects, and writes nothing once the
   * journal is closed. Resolves with how many were journaled closed; only the first call checks.
   */
  closeGoneOrders(source: OrderReads): Promise<number>;
  /** Resolves once closeGoneOrders has finished (with its count), or with 0 at close without one. */
  readonly goneClosed: Promise<number>;
  /** As goneClosed, with the exchange ids of the restored orders it journaled closed. */
  readonly goneOrders: Promise<ReadonlySet<string>>;
  /** Stops the snapshots and closes the file (after the engine's `stopped` event). Idempotent. */
  close(): void;
  /**
   * For a run whose engine will never emit `stopped` (the daemon's start failed after the journal
   * opened): journals its end as that event would (the stop snapshot, then the run's stop with
   * `reason` and the `openOrders` the engine holds), then closes. Without it the run row read as a
   * killed one. It only adds the end: every placement and cancel journaled stays, so what earlier
   * runs may have left resting stays restorable. A failed write is logged; never throws.
   */
  end(reason: string, openOrders: number): void;
}

/**
 * Opens the journal for one daemon run: records the run (the account, its session) and the tokens it
 * may trade, reads what earlier runs of the same account left (each token's account, the orders they
 * may have left resting, a kill-switch trip nobody re-armed: said at warn, the engine starts tripped), writes the restored accounts as this run's first rows, and builds the
 * recorder that journals the engine's events. A journal that cannot be opened (unwritable folder,
 * schema newer than this mm), or whose start-up writes fail (locked past the wait, full disk), is a
 * ConfigError on journal.path (exit code 2): nothing was sent yet.
 * @example const j = openDaemonJournal(settings, { account, session, tokens, clock, logger });
 * createEngine({ …, options: { …, restore: j.restore }, listener: (e) => j.recorder.onEvent(e) });
 */
export function openDaemonJournal(
  settings: JournalSettings,
  ctx: {
    /** Exchange base URL + wallet: restores only ever come from runs of the same account. */
    readonly account: string;
    readonly session: string;
    readonly tokens: readonly JournalToken[];
    readonly clock: Clock;
    readonly logger: Logger;
    /**
     * The account's run lock (lockDaemonJournal), now the journal's: told the run id, released at
     * close, after the file (and when this open fails).
     */
    readonly lock?: AccountLock;
    /**
     * Slugs the start found markets under that the journal did not say they had (retitled while mm
     * was down: selectMarkets' slugsTaken): journaled first, as the engine's market_slug would be, so
     * that the journal follows the exchange and this run's restore knows the slugs they left.
     */
    readonly slugsTaken?: readonly { marketId: string; slug: string; previous: string }[];
  },
): DaemonJournal {
  let db: ReturnType<typeof openJournalDb>;
  try {
    db = openJournalDb(settings.path, {
      sync: settings.sync,
      warn: (fields, message) => ctx.logger.warn(fields, message),
    });
  } catch (err) {
    ctx.lock?.release();
    if (!(err instanceof JournalError)) throw err;
    throw new ConfigError([{ field: "journal.path", message: err.message }]);
  }
  try {
    const writer = new JournalWriter(db);
    const now = ctx.clock.now();
    const run = writer.beginRun({
      account: ctx.account,
      session: ctx.session,
      atMs: now,
      tokens: ctx.tokens,
    });
    ctx.lock?.setRun(run);
    for (const t of ctx.slugsTaken ?? []) writer.marketSlug(run, { atMs: now, ...t });
    const found = readRestore(db, ctx.account, run);
    const traded = new Set(ctx.tokens.map((t) => t.tokenId));
    const accounts = new Map([...found.accounts].filter(([t]) => traded.has(t)));
    const feePending = found.feePending.filter((f) => accounts.has(f.tokenId));
    const marks = new Map([...found.marks].filter(([t]) => accounts.has(t)));
    writer.batch(() => {
      for (const [t, acc] of accounts) writer.account(run, now, "restore", t, acc, marks.get(t));
    });
    const left = readMarketSlugs(db, ctx.account).left();
    const restore: JournalRestore = {
      ...found,
      accounts,
      feePending,
      marks,
      ...(left.size === 0 ? {} : { slugsLeft: left }),
    };
    logRestore(ctx.logger, settings.path, run, restore);
    if (restore.killSwitch !== undefined) logStillTripped(ctx.logger, settings.path, restore.killSwitch);
    if (restore.carriedDrawdown !== undefined) logCarried(ctx.logger, settings.path, restore.carriedDrawdown);
    const recorder = new JournalRecorder({
      writer,
      run,
      clock: ctx.clock,
      logger: ctx.logger,
      snapshotIntervalMs: settings.snapshotIntervalMs,
      restored: accounts,
      restoredMarks: marks,
      restoredOrders: restore.orders,
      unanswered: restore.unanswered,
      foreignAccounts: new Map([...found.accounts].filter(([t]) => !traded.has(t))),
      // The start-up above may wait the open's 5 s for a lock (nothing is in flight yet); the
      // recorder's writes run between the engine's sends and wait DAEMON_BUSY_TIMEOUT_MS at most.
      path: settings.path,
    });
    const days = settings.retentionDays ?? 0;
    const retention =
      days > 0
        ? new JournalRetention({
            db,
            clock: ctx.clock,
            logger: ctx.logger,
            retentionMs: days * DAY_MS,
            path: settings.path,
          })
        : undefined;
    retention?.start();
    let closed = false;
    let checking: Promise<number> | undefined;
    let settle: (ids: ReadonlySet<string>) => void = () => undefined;
    const goneOrders = new Promise<ReadonlySet<string>>((resolve) => {
      settle = resolve;
    });
    const goneClosed = goneOrders.then((ids) => ids.size);
    const gone = { writer, run, clock: ctx.clock, logger: ctx.logger, path: settings.path };
    const close = () => {
      if (closed) return;
      closed = true;
      if (checking === undefined) settle(new Set());
      retention?.close();
      recorder.close();
      db.close();
      ctx.lock?.release();
    };
    return {
      path: settings.path,
      run,
      restore,
      recorder,
      closeGoneOrders: (source) => {
        checking ??= closeGone(gone, restore.orders, source, () => closed).then((ids) => {
          settle(ids);
          return ids.size;
        });
        return checking;
      },
      goneClosed,
      goneOrders,
      close,
      end: (reason, openOrders) => {
        recorder.onEvent({ type: "stopped", atMs: ctx.clock.now(), reason, openOrders });
        close();
      },
    };
  } catch (err) {
    db.close();
    ctx.lock?.release();
    // The start-up writes (run row, restore rows) fail like the open when the file cannot take them:
    // a lock held past the start's wait (an operator's sqlite3 shell, a VACUUM), a full disk. Nothing
    // was sent yet, and it is the operator's file to fix: the same error as an open that failed.
    if (err instanceof BetterSqlite3.SqliteError) {
      throw new ConfigError([
        { field: "journal.path", message: `cannot write the journal at ${settings.path}: ${err.message}` },
      ]);
    }
    throw err;
  }
}

/**
 * findGoneOrders over `orders`, then journalGoneOrders unless the journal has closed meanwhile (the
 * run stopping); resolves with the ids journaled closed. Any failure is logged and leaves the orders
 * as they were, for the next start (none closed).
 */
async function closeGone(
  j: { writer: JournalWriter; run: number; clock: Clock; logger: Logger; path: string },
  orders: ReadonlyMap<string, string>,
  source: OrderReads,
  isClosed: () => boolean,
): Promise<ReadonlySet<string>> {
  if (orders.size === 0) return new Set();
  let check: GoneCheck;
  try {
    check = await findGoneOrders(source, orders, {
      stopped: isClosed,
      onReadError: (orderId, err) => {
        if (!isClosed()) j.logger.warn({ err, orderId }, "journal: reading an earlier run's order failed");
      },
    });
  } catch (err) {
    if (!isClosed()) {
      j.logger.warn({ err }, "journal: could not read the open orders; earlier runs' orders stay restorable");
    }
    return new Set();
  }
  if (isClosed()) return new Set();
  try {
    journalGoneOrders(j.writer, j.run, check.gone, j.clock.now());
  } catch (err) {
    j.logger.warn({ err }, "journal: writing the closed orders of earlier runs failed");
    return new Set();
  }
  const statuses: Record<string, number> = {};
  for (const g of check.gone) statuses[g.status] = (statuses[g.status] ?? 0) + 1;
  const quiet = check.gone.length === 0 && check.undecided === 0;
  (quiet ? j.logger.debug : j.logger.info).call(
    j.logger,
    {
      journal: j.path,
      run: j.run,
      closed: check.gone.length,
      statuses,
      open: check.open,
      undecided: check.undecided,
    },
    `journal ${j.path}: ${check.gone.length} order(s) of earlier runs no longer open on the exchange, journaled closed` +
      (check.undecided > 0 ? ` (${check.undecided} left for the next start)` : ""),
  );
  return new Set(check.gone.map((g) => g.orderId));
}

function logRestore(logger: Logger, path: string, run: number, r: JournalRestore): void {
  let realised = 0n;
  let fees = 0n;
  for (const a of r.accounts.values()) {
    realised += a.realisedPico;
    fees += a.feesPico;
  }
  logger.info(
    {
      journal: path,
      run,
      earlierRuns: r.runs,
      restoredTokens: r.accounts.size,
      restoredOrders: r.orders.size,
      unansweredPlacements: r.unanswered.size,
      feesPending: r.feePending.length,
      realisedPico: realised.toString(),
      feesPico: fees.toString(),
    },
    r.runs === 0
      ? `journal ${path}: first run of this account`
      : `journal ${path}: restored ${r.accounts.size} token account(s) and ${r.orders.size} order id(s) from ${r.runs} earlier run(s)`,
  );
}

/**
 * The run starts with the kill switch an earlier run tripped and nobody re-armed (the engine quotes
 * nothing until `kill -USR2`): said at warn, once, with what tripped it.
 */
function logStillTripped(logger: Logger, path: string, t: RestoredTrip): void {
  logger.warn(
    {
      journal: path,
      trippedInRun: t.run,
      peak: weiToString(t.peakMicro),
      pnl: weiToString(t.pnlMicro),
      drawdown: weiToString(t.drawdownMicro),
      limit: weiToString(t.limitMicro),
    },
    `kill switch tripped in an earlier run (at ${new Date(t.atMs).toISOString()}, drawdown ` +
      `${weiToString(t.drawdownMicro)} USDC): still tripped; re-arm with kill -USR2 ${process.pid}`,
  );
}

/**
 * The run starts with an armed kill switch's drawdown an earlier run had reached (the limit is not
 * renewed by a restart): said at warn, once, with how to re-base it.
 */
function logCarried(logger: Logger, path: string, c: CarriedDrawdown): void {
  logger.warn(
    { journal: path, fromRun: c.run, drawdown: weiToString(c.drawdownMicro) },
    `kill switch: ${weiToString(c.drawdownMicro)} USDC of drawdown carried over from run ${c.run} ` +
      `(as of ${new Date(c.atMs).toISOString()}); re-base it to 0 with kill -USR2 ${process.pid}`,
  );
}
