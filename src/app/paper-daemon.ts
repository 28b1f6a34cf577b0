import type { MmConfig } from "../config/types.js";
import type { Address } from "../core/types.js";
import type { MockExchange } from "../mock/mock-exchange.js";
import type { Logger } from "../observability/logger.js";
import { type Daemon, type DaemonOptions, startDaemon } from "./daemon.js";
import { journalAccount } from "./journal.js";
import { paperJournalSettings } from "./journal-settings.js";
import type { DaemonOutcome } from "./outcome.js";
import { type PaperExchangeOptions, startPaperExchange } from "./paper.js";
import { settleFromJournal } from "./paper-settlements.js";
import { StartStoppedError } from "./start-errors.js";

/**
 * Paper's rate-budget margin, ms (the live default is 50 ms): a token comes back window + this after
 * its send. The mock lives in mm's own process and counts a request when its handler runs, which
 * under CPU load is long after mm sent it: the event loop is busy with the start (book snapshots, the
 * other requests' signatures) or the process is descheduled. With load average ~6 on 2 cores the
 * start burst's placements were answered 300–900 ms after their send, so a 50-per-second window of
 * the mock took those and the next second's, and answered 18–22 of them 429. 1 s covers what was
 * measured; the cost is paper's sustained placement rate (50 per 2 s instead of per 1.05 s; the
 * burst of 50 is whole), which live keeps.
 */
export const PAPER_RATE_MARGIN_MS = 1_000;

/** A daemon trading against a mock exchange that lives (and dies) with it. */
export interface PaperDaemon extends Daemon {
  readonly mock: MockExchange;
  readonly config: MmConfig;
}

export type PaperDaemonOptions = PaperExchangeOptions &
  Omit<DaemonOptions, "logger"> & {
    /** `mm paper --journal FILE`: keep paper history in this file (resolved against cwd). */
    readonly journalPath?: string;
  };

/**
 * Paper trading: the mock exchange in this process (startPaperExchange) and the daemon against it
 * over real HTTP and WebSocket on 127.0.0.1. Stopping cancels every quote, reports how many orders
 * of the paper wallet the mock still holds (its own count, not the bot's belief), then closes the
 * mock. The journal is `o.journal`, else paperJournalSettings (`o.journalPath`, or a fresh temp file;
 * never the configuration's journal.path, from a --config file or MM_JOURNAL_PATH: the live journal's);
 * a kept one's settled markets are settled on the fresh mock before the daemon starts
 * (settleFromJournal).
 * @example const paper = await startPaperDaemon({ env: process.env, cwd: process.cwd(), logger });
 */
export async function startPaperDaemon(o: PaperDaemonOptions): Promise<PaperDaemon> {
  const { logger } = o;
  const { mock, config, wallet } = await startPaperExchange(o);
  logger.info(
    { http: mock.httpUrl, ws: mock.wsUrl, wallet },
    `paper: mock exchange at ${mock.httpUrl} (WebSockets ${mock.wsUrl}/ws/market and /ws/user, ` +
      `fault injection ${mock.httpUrl}/__admin/*); paper wallet ${wallet}`,
  );
  let daemon: Daemon;
  try {
    const named = o.journalPath === undefined ? {} : { path: o.journalPath };
    const journal = o.journal ?? paperJournalSettings(config, { cwd: o.cwd, ...named });
    if (o.journal === undefined && journal !== undefined && config.journal.path !== "") {
      // An operator layering live.json, or who sourced the live env file, may expect its journal
      // to be used: say why it is not.
      logger.info(
        { configured: config.journal.path, journal: journal.path },
        "paper: journal.path of the configuration (a --config file or MM_JOURNAL_PATH) is not used " +
          "(it names the live journal): mm paper --journal FILE keeps paper history in a file",
      );
    }
    // A kept journal: the markets earlier runs on it saw settle are settled on this fresh mock too.
    if (journal !== undefined) {
      settleFromJournal(mock, journal.path, journalAccount(config.exchange.baseUrl, wallet), logger);
    }
    daemon = await startDaemon(config, {
      ...(journal === undefined ? {} : { journal }),
      logger,
      rateMarginMs: PAPER_RATE_MARGIN_MS,
      ...(o.clock === undefined ? {} : { clock: o.clock }),
      ...(o.listener === undefined ? {} : { listener: o.listener }),
      ...(o.onMarketFrame === undefined ? {} : { onMarketFrame: o.onMarketFrame }),
      ...(o.onStopping === undefined ? {} : { onStopping: o.onStopping }),
      ...(o.stopRequested === undefined ? {} : { stopRequested: o.stopRequested }),
      ...(o.metrics === undefined ? {} : { metrics: o.metrics }),
    });
  } catch (err) {
    // A start stopped on request still ends with the mock's own count, as every paper stop does.
    if (err instanceof StartStoppedError) reportMock(logger, mock, wallet);
    await mock.close();
    throw err;
  }
  // The spec keys a market's order book by symbol (GET /api/markets/{symbol}/orderbook), not slug.
  const first = daemon.markets.slugs[0];
  const symbol = (first === undefined ? undefined : mock.context.markets.bySlug(first)?.symbol) ?? "<symbol>";
  logger.info(
    `paper: where to look — the book of a market: curl ${mock.httpUrl}/api/markets/${symbol}/orderbook; ` +
      `every market: curl ${mock.httpUrl}/api/markets; fills appear below as they happen; Ctrl-C cancels every quote and exits`,
  );
  let finished: Promise<DaemonOutcome> | undefined;
  const finish = (outcome: DaemonOutcome): Promise<DaemonOutcome> => {
    finished ??= (async () => {
      reportMock(logger, mock, wallet);
      const j = daemon.journal;
      if (j !== undefined) {
        logger.info({ journal: j.path }, `paper: this run's journal: mm report --journal ${j.path}`);
      }
      await mock.close();
      return outcome;
    })();
    return finished;
  };
  const done = daemon.done.then(finish);
  return {
    ...daemon,
    mock,
    config,
    done,
    stop: async (reason) => finish(await daemon.stop(reason)),
  };
}

/** Logs how many orders of the paper wallet the mock holds (its own count): a warning unless none. */
function reportMock(logger: Logger, mock: MockExchange, wallet: Address): void {
  const left = mock.context.venue.openOrders(wallet).length;
  const line = `paper: the mock exchange holds ${left} open order(s) of the paper wallet`;
  if (left === 0) logger.info({ openOnMock: left }, line);
  else logger.warn({ openOnMock: left }, line);
}
