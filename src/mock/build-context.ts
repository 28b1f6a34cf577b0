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
 * How long the mock keeps closed orders and past trades for its history endpoints. A paper session
 * with the flow on closes thousands of orders a minute; keeping all of them grew the mock by about
 * 1 MB/s on 100 markets. An hour is far beyond what the bot reads back (its trade backfill looks
 * back minutes) and bounds a long `npm start` session.
 */
export const MOCK_HISTORY_MS = 3_600_000;

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
    retainClosedMs: MOCK_HISTORY_MS,
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
