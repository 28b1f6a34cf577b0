import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";
import { type Daemon, startDaemon } from "../../../src/app/daemon.js";
import type { JournalSettings } from "../../../src/app/journal-settings.js";
import type { StopRequests } from "../../../src/app/lifecycle.js";
import { superviseDaemon } from "../../../src/app/supervise.js";
import { loadConfig } from "../../../src/config/load.js";
import type { MmConfig } from "../../../src/config/types.js";
import type { Address } from "../../../src/core/types.js";
import { toWei } from "../../../src/core/wei.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { createMockExchange, type MockExchange } from "../../../src/mock/mock-exchange.js";
import { defaultScenarioPath, loadScenario } from "../../../src/mock/scenario/load.js";
import type { MarketScenario, Scenario } from "../../../src/mock/scenario/types.js";
import { createLogger, type Logger } from "../../../src/observability/logger.js";
import { type CollectingStream, collectingStream } from "../../support/collecting-stream.js";

/** The default scenario, read once. */
export const SCENARIO: Scenario = loadScenario(defaultScenarioPath());
/** The paper wallet (scenario wallets[0]) and its API key (apiKeys[0]). */
export const WALLET = SCENARIO.wallets[0]?.address.toLowerCase() as Address;
export const PRIVATE_KEY = SCENARIO.wallets[0]?.privateKey as string;
export const API_KEY = SCENARIO.apiKeys[0]?.key as string;
export const KEY_ID = API_KEY.split("_")[2] as string;
/** The flow's wallet: plenty of USDC and shares; the tests' "other trader". */
export const OTHER = SCENARIO.flow.wallet.toLowerCase() as Address;

/** A scenario market by slug. */
export function market(slug: string, scenario: Scenario = SCENARIO): MarketScenario {
  const m = scenario.markets.find((x) => x.slug === slug);
  if (m === undefined) throw new Error(`no market ${slug}`);
  return m;
}

/** A mock exchange on 127.0.0.1 with the flow off (books are what the test puts there). */
export function startMock(scenario: Scenario = SCENARIO): Promise<MockExchange> {
  return createMockExchange({ scenario, flow: false, admin: true });
}

/**
 * The MM_* variables that point a daemon at `mock` with the paper credentials, quoting `slugs`.
 * Tick sizes come from the scenario; `extra` overrides anything.
 */
export function daemonEnv(
  mock: MockExchange,
  slugs: readonly string[],
  extra: Record<string, string> = {},
  scenario: Scenario = SCENARIO,
): Record<string, string> {
  return {
    MM_EXCHANGE_BASE_URL: mock.httpUrl,
    MM_EXCHANGE_WS_URL: mock.wsUrl,
    MM_API_KEY: API_KEY,
    MM_PRIVATE_KEY: PRIVATE_KEY,
    MM_ENGINE_MARKETS: JSON.stringify(slugs),
    MM_MARKETS_TICK_SIZES: JSON.stringify(
      Object.fromEntries(scenario.markets.map((m) => [m.slug, m.tickSize])),
    ),
    MM_LOG_PRETTY: "false",
    MM_LOG_LEVEL: "info",
    // Daemons in parallel test files must not fight over the default metrics port.
    MM_METRICS_PORT: "0",
    ...extra,
  };
}

/** The configuration a daemon in this process runs with. */
export function daemonConfig(
  mock: MockExchange,
  slugs: readonly string[],
  extra: Record<string, string> = {},
  scenario: Scenario = SCENARIO,
): MmConfig {
  return loadConfig({ env: daemonEnv(mock, slugs, extra, scenario) });
}

/** The mock exchange and the daemon a test started, for the tear-down to end. */
export interface DaemonSlots {
  mock: MockExchange | undefined;
  daemon: Daemon | undefined;
}

/**
 * Registers an afterEach that stops the slots' daemon and then closes their mock (the daemon first, so it
 * does not see its exchange vanish), and returns the slots each test fills.
 * @example const slots = daemonSlots(); it("…", async () => { slots.mock = await startMock(); slots.daemon = await startDaemon(…); });
 */
export function daemonSlots(): DaemonSlots {
  const slots: DaemonSlots = { mock: undefined, daemon: undefined };
  afterEach(() => endDaemonSlots(slots));
  return slots;
}

/** Stops the slots' daemon, then closes their mock, and empties both (the tear-down of {@link daemonSlots}). */
export async function endDaemonSlots(slots: DaemonSlots): Promise<void> {
  await slots.daemon?.stop("test over");
  await slots.mock?.close();
  slots.daemon = undefined;
  slots.mock = undefined;
}

/** A JSON logger into memory. */
export function memoryLogger(level = "info"): { logger: Logger; sink: CollectingStream } {
  const sink = collectingStream();
  return { logger: createLogger({ level, pretty: false, destination: sink }), sink };
}

/**
 * The bot's own wallet takes `quantity` YES of `m` at up to `price` (IOC), outside the bot: a fill
 * the bot learns of from the exchange. Throws unless it filled completely.
 */
export function walletBuys(mock: MockExchange, m: MarketScenario, price: string, quantity: string): void {
  const r = mock.context.venue.place({
    wallet: WALLET,
    marketId: m.id,
    outcome: "YES",
    side: "buy",
    price: toWei(price),
    quantity: toWei(quantity),
    timeInForce: "ioc",
  });
  if (r.status !== "FILLED") throw new Error(`the wallet's buy did not fill: ${r.status}`);
}

/** Rests an order of the other trader straight in the venue (no HTTP): it moves the book the bot sees. */
export function rest(
  mock: MockExchange,
  m: MarketScenario,
  side: "buy" | "sell",
  price: string,
  quantity: string,
  outcome = "YES",
  wallet: Address = OTHER,
): string {
  const r = mock.context.venue.place({
    wallet,
    marketId: m.id,
    outcome,
    side,
    price: toWei(price),
    quantity: toWei(quantity),
  });
  if (r.status === "REJECTED") throw new Error(`venue refused: ${r.code ?? ""} ${r.message ?? ""}`);
  return r.orderId;
}

/** Both outcome books of a market: YES bid/ask around `yesMid` ± `half`, NO mirrored. */
export function seedMarket(
  mock: MockExchange,
  m: MarketScenario,
  yesBid: string,
  yesAsk: string,
  size = "100",
): void {
  const noBid = (1 - Number(yesAsk)).toFixed(6);
  const noAsk = (1 - Number(yesBid)).toFixed(6);
  rest(mock, m, "buy", yesBid, size, "YES");
  rest(mock, m, "sell", yesAsk, size, "YES");
  rest(mock, m, "buy", noBid, size, "NO");
  rest(mock, m, "sell", noAsk, size, "NO");
}

/**
 * A fresh mock, put in `slots` (closed after the test), with `m`'s books seeded (YES 0.50/0.60) and
 * two orders of an earlier run of WALLET's resting on it: a bid at 0.40 and an ask at 0.70, 10 YES
 * each — what a restarted `mm run` finds there.
 */
export async function mockWithTwoResting(
  slots: { mock: MockExchange | undefined },
  m: MarketScenario,
): Promise<MockExchange> {
  const mock = await startMock();
  slots.mock = mock;
  seedMarket(mock, m, "0.50", "0.60");
  rest(mock, m, "buy", "0.40", "10", "YES", WALLET);
  rest(mock, m, "sell", "0.70", "10", "YES", WALLET);
  return mock;
}

/** Our open orders on the mock (its own view), optionally for one token. */
export function openOnMock(
  mock: MockExchange,
  tokenId?: string,
): { orderId: string; side: string; price: bigint }[] {
  return mock.context.venue
    .openOrders(WALLET)
    .filter((o) => tokenId === undefined || o.tokenId === tokenId)
    .map((o) => ({ orderId: o.id, side: o.side, price: o.price }));
}

/** Polls `probe` every 10 ms until it returns a value other than undefined/false, or fails after `ms`. */
export async function waitFor<T>(probe: () => T | undefined | false, ms: number, what: string): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > until) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Our open orders on a token as "side price size" strings, sorted. */
export function quotesOn(mock: MockExchange, tokenId: string): string[] {
  return mock.context.venue
    .openOrders(WALLET)
    .filter((o) => o.tokenId === tokenId)
    .map((o) => `${o.side} ${Number(o.price) / 1e6} ${Number(o.remainingQty) / 1e6}`)
    .sort();
}

/**
 * Waits until `count` quotes of ours rest on `tokenId`, unchanged for `quietMs`, and returns them: placements
 * land one at a time, and each one moves the book the strategy reads, so the first quotes are
 * followed by a few requotes before they settle.
 */
export async function settledQuotes(
  mock: MockExchange,
  tokenId: string,
  count: number,
  quietMs = 500,
  ms = 5_000,
): Promise<{ side: string; price: number; size: number }[]> {
  const until = Date.now() + ms;
  let last = "";
  let since = Date.now();
  for (;;) {
    const now = quotesOn(mock, tokenId);
    const key = now.join("|");
    if (key !== last) {
      last = key;
      since = Date.now();
    } else if (now.length === count && Date.now() - since >= quietMs) {
      return now.map((q) => {
        const [side = "", price = "0", size = "0"] = q.split(" ");
        return { side, price: Number(price), size: Number(size) };
      });
    }
    if (Date.now() > until) throw new Error(`quotes on ${tokenId} did not settle within ${ms} ms: ${key}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * Stop requests the test fires by hand (the lifecycle's StopRequests without process signals).
 * @example const r = manualRequests(); runUntilStopped(start, { requests: r.requests, … }); r.fire("SIGTERM");
 */
export function manualRequests(): {
  requests: StopRequests;
  /** A request; with `failure`, a failed one (an uncaught error). */
  fire: (reason: string, failure?: unknown) => void;
  listening: () => boolean;
} {
  let handler: ((reason: string, failure?: unknown) => void) | undefined;
  return {
    requests: (onStop) => {
      handler = onStop;
      return () => {
        handler = undefined;
      };
    },
    fire: (reason, failure) => handler?.(reason, failure),
    listening: () => handler !== undefined,
  };
}

/*
 * The start path's tests (stop-during-*, fatal-during-start, start-*): a journal in a private folder
 * read back after the run, a wait for a log line, and the error a start ends with.
 */

/**
 * Registers an afterEach that removes every journal folder made, and returns the maker: each call
 * gives the settings of a journal in a fresh private folder under the OS temp dir.
 * @example const newJournal = tempJournals("mm-stop-"); it("…", async () => { const journal = newJournal(); … });
 */
export function tempJournals(prefix: string): () => JournalSettings {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    return { path: join(dir, "journal.sqlite"), snapshotIntervalMs: 60_000, sync: "normal" };
  };
}

/** One run row of a journal: a row without its stop reads as a crash at the next start. */
export interface JournalRun {
  stopped_at_ms: bigint | null;
  stop_reason: string | null;
  open_at_stop: bigint | null;
}

/** The journal's run rows, in the order written. */
export function journalRuns(journal: JournalSettings): JournalRun[] {
  const db = openJournalDb(journal.path, { mustExist: true });
  try {
    return db.prepare("SELECT stopped_at_ms, stop_reason, open_at_stop FROM runs").all() as JournalRun[];
  } finally {
    db.close();
  }
}

/** Resolves once a log line starting with `text` is written (fails after 15 s). */
export function logged(sink: CollectingStream, text: string): Promise<true> {
  return waitFor(() => sink.records().some((r) => String(r.msg).startsWith(text)), 15_000, text);
}

/**
 * What startDaemon throws for `config`; an Error "the daemon started" (once it is stopped again)
 * when the start succeeds.
 * @example const err = await startFailure(daemonConfig(mock, ["no-such-market"]));
 */
export function startFailure(config: MmConfig): Promise<unknown> {
  const { logger } = memoryLogger();
  return startDaemon(config, { logger }).then(
    async (d) => {
      await d.stop("test over");
      return new Error("the daemon started");
    },
    (err: unknown) => err,
  );
}

/**
 * `mm run` under supervise for `config`, no stop requested (a start that fails ends it): the exit
 * code and everything written to stderr.
 * @example const { code, stderr } = await supervisedRun(daemonConfig(mock, ["no-such-market"]));
 */
export async function supervisedRun(config: MmConfig): Promise<{ code: number; stderr: string }> {
  const { logger } = memoryLogger();
  const lines: string[] = [];
  const code = await superviseDaemon(
    "run",
    (onStopping, stopRequested) => startDaemon(config, { logger, onStopping, stopRequested }),
    5_000,
    (text) => lines.push(text),
    { requests: () => () => undefined },
  );
  return { code, stderr: lines.join("") };
}
