import type { Clock } from "../core/clock.js";
import { LiveClock } from "../core/live-clock.js";
import { toWei } from "../core/wei.js";
import { createLogger, type Logger } from "../observability/logger.js";
import { SplitMix64, seededVenueIds } from "../venue/ids.js";
import { USDC } from "../venue/ledger.js";
import { SimVenue } from "../venue/sim-venue.js";
import { BookSeqOffsets } from "./book-seq.js";
import { type MockContext, marketCatalog } from "./context.js";
import { Directory } from "./directory.js";
import { noFaults } from "./faults/state.js";
import { flowTakerAccount } from "./flow/accounts.js";
import { MarketResolutions } from "./market-resolutions.js";
import { FixedWindowLimiter } from "./rate-limiter.js";
import type { Scenario } from "./scenario/types.js";
import { vaultOf } from "./vault.js";

export interface MockContextOptions {
  readonly scenario: Scenario;
  /** Default: the wall clock. Tests may pass a SimClock. */
  readonly clock?: Clock;
  /** Default: a silent logger. */
  readonly logger?: Logger;
}

/**
 * How long the mock keeps closed orders and past trades for its history endpoints: past what mm
 * reads back. After a restart mm looks up the fees of fills up to a day old (FEE_PENDING_WINDOW_MS,
 * GET /api/me/trades and /api/me/fees) and, with `adopt`, an adopted order's fills since it was
 * placed (GET /api/orders/{id}/fills); an hour of slack covers the time the bot was down.
 */
export const MOCK_HISTORY_MS = 25 * 3_600_000;

/**
 * The count bound beside MOCK_HISTORY_MS (SimVenue's retainMaxPerWallet): closed orders and trade
 * rows kept per wallet. The flow alone closes about 240,000 orders an hour on the default
 * scenario's nine markets (about 180 MB an hour kept), so a day of everything does not fit; the bound drops each wallet's oldest first, so the flow's churn never pushes the
 * bot's own history out, and a paper bot keeps its whole day unless it closes more than this.
 * Measured on a SimClock: the flow levels off after about four simulated hours at 190–230 MB of
 * heap, about what the earlier one-hour window held.
 */
export const MOCK_HISTORY_MAX_PER_WALLET = 100_000;

/**
 * Trades kept per token for the public trade reads (SimVenue's retainTradesPerToken): those look
 * at the newest 1,000 of a token (TRADE_WINDOW in http/routes/market-activity.ts), so a day of the
 * flow's prints need not be kept.
 */
export const MOCK_TAPE_PER_TOKEN = 2_000;

/**
 * Builds the shared state of a mock exchange from a scenario: the venue with its markets and
 * funded wallets, the directory of partners/keys/wallets, the rate limiter, an empty fault state
 * and the seeded random source. No sockets: see listenHttp and the gateways for those.
 */
export function buildMockContext(opts: MockContextOptions): MockContext {
  const { scenario } = opts;
  const clock = opts.clock ?? new LiveClock();
  const log = opts.logger ?? createLogger({ level: "silent", pretty: false });
  const rng = new SplitMix64(scenario.seed);
  const venue = new SimVenue({
    clock,
    ids: seededVenueIds(scenario.seed),
    vaultOf,
    // The flow's taker account has no API key (flow/accounts.ts): nobody can read its history, so
    // its closed orders and trade rows are not kept (its trades stay on the tape and in the other
    // side's rows).
    transientWallets: [flowTakerAccount(scenario.flow.wallet)],
    retainClosedMs: MOCK_HISTORY_MS,
    retainMaxPerWallet: MOCK_HISTORY_MAX_PER_WALLET,
    retainTradesPerToken: MOCK_TAPE_PER_TOKEN,
    onListenerError: (err, event) => log.error({ err, event: event.type }, "mock: venue listener failed"),
  });
  for (const m of scenario.markets) {
    venue.registerMarket({
      marketId: m.id,
      conditionId: m.conditionId,
      outcomes: [
        { label: "YES", tokenId: m.yesTokenId },
        { label: "NO", tokenId: m.noTokenId },
      ],
      tickSize: toWei(m.tickSize, "tickSize"),
      feeTakerBps: m.feeTakerBps,
      status: m.status,
      negRisk: m.negRisk,
    });
  }
  for (const w of scenario.wallets) {
    venue.credit(w.address, USDC, toWei(w.usdc, "usdc"));
    for (const [token, qty] of Object.entries(w.shares)) venue.credit(w.address, token, toWei(qty, "shares"));
  }
  let requestSeq = 0;
  const prefix = rng.next().toString(16).padStart(16, "0").slice(0, 8);
  const directory = new Directory(scenario, clock);
  return {
    // The directory now holds each secret only as a peppered hash; drop the clear values here too.
    scenario: { ...scenario, apiKeys: scenario.apiKeys.map((k) => ({ ...k, key: withoutSecret(k.key) })) },
    clock,
    venue,
    directory,
    limiter: new FixedWindowLimiter(clock),
    faults: noFaults(),
    markets: marketCatalog(scenario),
    resolutions: new MarketResolutions(),
    bookSeq: new BookSeqOffsets(),
    log,
    random: () => Number(rng.next() >> 11n) / 2 ** 53,
    nextRequestId: () => `${prefix}-${(++requestSeq).toString(16).padStart(8, "0")}`,
  };
}

/** `<svc>_<env>_<keyId>_<secret>` → `<svc>_<env>_<keyId>_[hashed]`: the public part stays for logs. */
function withoutSecret(key: string): string {
  return `${key.split("_").slice(0, 3).join("_")}_[hashed]`;
}
