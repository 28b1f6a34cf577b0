import { STRATEGY_NAMES } from "../../strategies/registry.js";
import { DEFAULT_RISK_SETTINGS } from "../risk/config.js";
import type { SettingSpec } from "./schema.js";

/** How the onStart reconcile treats orders of the wallet already resting when mm starts. */
export type OnStartPolicy = "cancel" | "adopt";

/** A strategy entry as config files write it: a registry name and its parameters (JSON). */
export interface StrategySetting {
  readonly name: string;
  readonly params?: unknown;
}

/** The trading settings as convict holds them. */
export interface RawEngineConfig {
  engine: {
    markets: string[];
    strategy: StrategySetting;
    strategyByMarket: Record<string, StrategySetting>;
    priceToleranceTicks: number;
    sizeTolerance: number;
    session: string;
    marketRecheckMs: number;
    requoteIntervalMs: number;
    strategySlowMs: number;
  };
  /** A JSON tree read by parseRiskConfig (src/risk/config.ts). */
  risk: Record<string, unknown>;
  queue: { rateLimitPerMin: number; concurrency: number; ipLimitFactor: number };
  reconcile: { intervalMs: number; driftSettleMs: number; onStart: OnStartPolicy };
  shutdown: { timeoutMs: number };
  metrics: { host: string; port: number; maxMarketLabels: number };
  journal: {
    enabled: "true" | "false";
    path: string;
    snapshotIntervalMs: number;
    synchronous: JournalSyncSetting;
    retentionDays: number;
  };
}

/** SQLite's `synchronous` for the journal (see src/journal/open.ts for what each survives). */
export type JournalSyncSetting = "normal" | "full";

const setting = <T>(spec: SettingSpec<T>): SettingSpec<T> => spec;

/**
 * The default strategy: two symmetric bands around the mid, 10 shares at ±0.01 and 25 shares at
 * ±0.03 — small next to the risk defaults (250 shares per quote, 1,000 per market before
 * reduce-only), so a fresh config cannot build a large position quickly.
 */
export const DEFAULT_STRATEGY: StrategySetting = {
  name: "bands",
  params: {
    reference: "mid",
    bands: [
      { margin: "0.01", size: "10" },
      { margin: "0.03", size: "25" },
    ],
  },
};

/** A deep copy of the risk defaults as plain JSON (the shape a config file writes). */
function riskDefaults(): Record<string, unknown> {
  return JSON.parse(JSON.stringify(DEFAULT_RISK_SETTINGS)) as Record<string, unknown>;
}

/**
 * The settings of the trading daemon (`mm run`, `mm paper`): what to quote and how, risk limits,
 * the order queue's budget, the reconciler and shutdown. JSON-valued settings (`layer`) are
 * combined across files by load.ts, not by convict.
 */
export const engineSchema = {
  engine: {
    markets: setting<string[]>({
      doc: 'Markets to quote, by slug (both outcome tokens of each), or ["*"] for every market the exchange lists at start (the list is not read again for new markets: one listed later is quoted from the next start). Empty quotes nothing and mm run refuses to start. Env: a JSON array or a comma-separated list.',
      format: "mm-market-list",
      default: [],
      env: "MM_ENGINE_MARKETS",
    }),
    strategy: setting<StrategySetting>({
      // The names come from the registry, so a strategy added there is documented here too.
      doc: `Strategy of every market without an entry in engine.strategyByMarket: {"name": ${STRATEGY_NAMES.map((n) => JSON.stringify(n)).join(" | ")}, "params": {...}} (parameters in strategies/README.md). On every market engine.markets names, at least one of its sizes must reach the market's minimum order size (else nothing is ever quoted there); a size below it while others fit is a config warning. A later file or the env var (JSON) replaces it whole.`,
      format: "mm-strategy",
      default: DEFAULT_STRATEGY,
      env: "MM_ENGINE_STRATEGY",
      layer: "replace",
    }),
    strategyByMarket: setting<Record<string, StrategySetting>>({
      doc: "Per-market strategies, market slug → {name, params}. Files merge slug by slug, each entry replaced whole; the env var (JSON) replaces the whole map.",
      format: "mm-strategy-map",
      default: {},
      env: "MM_ENGINE_STRATEGY_BY_MARKET",
      layer: "entries",
    }),
    priceToleranceTicks: setting({
      doc: "A live quote is left resting while its price is within this many ticks of the desired one (1 = requote on any on-tick change; 0 = on any difference).",
      format: "mm-int",
      default: 1,
      env: "MM_ENGINE_PRICE_TOLERANCE_TICKS",
      min: 0,
      max: 1000,
    }),
    sizeTolerance: setting({
      doc: "A live quote is left resting while its unfilled size is within this fraction of the desired size (0.1 = 10 %).",
      format: "mm-number",
      default: 0.1,
      env: "MM_ENGINE_SIZE_TOLERANCE",
      min: 0,
      max: 1,
    }),
    session: setting({
      doc: "Session tag in this run's clientOrderIds (1-16 lowercase letters and digits). Empty: a random tag per process start. A fixed tag is safe across restarts: each run's sequence starts at its start instant in microseconds, so a restarted bot never mints an id an earlier run used (the exchange deduplicates on clientOrderId).",
      format: "mm-session",
      default: "",
      env: "MM_ENGINE_SESSION",
    }),
    marketRecheckMs: setting({
      doc: "How often, in ms, market statuses are read for a change no lifecycle push told (the spec: most lifecycle events are not yet emitted). The statuses of the quoted markets held OPEN are read this often, all in one GET /api/markets (a market the list leaves out: its GET /api/markets/{slug}), and one not OPEN any more is held (its quotes cancelled, nothing placed) as if pushed: a market paused silently is pulled within this long even when its book never moves. The record (GET /api/markets/{slug}) of every market closed by its status — listed not OPEN at start (PRE_MARKET…), paused by a push, or paused silently (found so by that read, or by a placement refused 409 market_not_open whose record said PAUSED) — is read this often too, and a change is taken as a push: a silent opening or resume is quoted within this long. A market refused market_not_open whose record does not say why (it says OPEN, or cannot be read) has its placements retried after this long. A read failing twice in a row is warned of once (mm_market_status_reads_failing). Lower: sooner, for more GETs: each period one GET /api/markets, plus one GET /api/markets/{slug} per market closed by its status, per quoted market the list leaves out (past its 500, say), and per one the list says is not OPEN (its record confirms it before it is held). Those endpoints share an IP bucket of 600 a minute with the order-book snapshots (resyncs), apart from the wallet's order buckets: at a short period with many quoted markets beyond the list, these reads can use it up.",
      format: "mm-int",
      default: 60_000,
      env: "MM_ENGINE_MARKET_RECHECK_MS",
      min: 1_000,
      max: 3_600_000,
    }),
    requoteIntervalMs: setting({
      doc: "Period of the time-driven requote, in ms: 0 (quote on events alone) or at least 100. Quoting steps run on events (book changes, fills, order answers); a token whose last step read the clock (avellaneda-stoikov without horizonSeconds: the time left to the market's close) is also stepped again this often, so its quotes follow the clock on a quiet book instead of waiting for the next event. Tokens whose strategy does not read it (bands; A–S with horizonSeconds) are never stepped by it: σ moves only with the book, whose every change steps its token. A step sends only quotes that moved beyond engine.priceToleranceTicks / engine.sizeTolerance, so a shorter period costs strategy runs, not orders. A replay takes it as live (engine.requoteIntervalMs in its config); a synthetic scenario defaults to 0 (config/backtest/README.md).",
      // Its range lives with the engine (requoteIntervalProblem): a backtest's config is held to it too.
      format: "mm-requote-interval",
      default: 1_000,
      env: "MM_ENGINE_REQUOTE_INTERVAL_MS",
    }),
    strategySlowMs: setting({
      doc: "A strategy call taking longer than this, in ms, is slow: a strategy runs synchronously on the event loop, so its time delays every other token's step and every socket. Each slow call is counted (mm_strategy_slow_calls_total) and warned of at most once a minute per strategy (the count and the slowest since the last line); its quotes stand (a slow strategy still prices correctly, and a step's time depends on the host's load). A call cannot be stopped midway: only measured.",
      format: "mm-int",
      default: 50,
      env: "MM_ENGINE_STRATEGY_SLOW_MS",
      min: 1,
      max: 60_000,
    }),
  },
  risk: setting<Record<string, unknown>>({
    doc: "Risk limits (JSON, amounts as decimal strings): inventory.perMarket / inventory.total {soft, hard} in shares, order {maxSize, maxNotional, oversize: clip | drop, maxLevels: quotes per side of a token kept, those nearest the touch, 1 to 1000}, killSwitch.maxDrawdown in USDC, errorRate {maxErrors ≥ 1 and below the order requests the queue.* rate limits let be answered within windowMs (else the halt could never trip), windowMs and coolDownMs ≥ 1000, ignoreCodes}; order.maxSize, order.maxNotional and the hard caps must fit one minimum-size quote on every market engine.markets names; omitted limits take their defaults. Files merge key by key; the env var (JSON) replaces the whole tree (mm config shows it with the defaults filled in).",
    format: "mm-risk",
    default: riskDefaults(),
    env: "MM_RISK",
    layer: "deep",
  }),
  queue: {
    rateLimitPerMin: setting({
      doc: "The partner's rateLimitPerMin from the exchange (600 = the baseline 1x): scales every wallet-scoped rate limit the order queue budgets for. Set it to what the integration manager granted; higher than granted means 429s until the exchange's X-RateLimit-Limit headers bring each wallet bucket down to the grant (it is paced at what they report, see Assumptions, \"a reported rate limit\"), lower is the ceiling whatever the headers say. It is not the spec's market-maker lift (10 to 50 times on place and cancel only): it scales cancel-all, order reads and portfolio reads too, so a lift expressed through it budgets those above their un-lifted limits (429s, and cancel-alls substituted for fewer cancels).",
      format: "mm-int",
      default: 600,
      env: "MM_QUEUE_RATE_LIMIT_PER_MIN",
      min: 1,
      max: 30_000,
    }),
    concurrency: setting({
      doc: "Placements in flight at most (cancels and cancel-alls have 4 more slots of their own). It must cover the send rate × the round trip, or it, not the rate budget, limits throughput.",
      format: "mm-int",
      default: 16,
      env: "MM_QUEUE_CONCURRENCY",
      min: 1,
      max: 256,
    }),
    ipLimitFactor: setting({
      doc: "Multiplier of the IP-scoped rate limits (place 1000/60 s…) for an IP the operator whitelisted; 1 unless the exchange lifted them for this IP.",
      format: "mm-int",
      default: 1,
      env: "MM_QUEUE_IP_LIMIT_FACTOR",
      min: 1,
      max: 1000,
    }),
  },
  reconcile: {
    intervalMs: setting({
      doc: "Period of the REST reconcile (open orders, missed fills, positions), in ms; it also runs after every WebSocket reconnect and every ambiguous send.",
      format: "mm-int",
      default: 30_000,
      env: "MM_RECONCILE_INTERVAL_MS",
      min: 1_000,
      max: 3_600_000,
    }),
    driftSettleMs: setting({
      doc: "A position that disagrees with the exchange's is corrected to its figure only once the same difference shows in two reconciles in a row and was first seen at least this long ago, with no fill of the token matched within this long before the positions read, in ms: the exchange's positions move at a fill's on-chain settlement, after its fill notice, and reconciles can run 250 ms apart (reconnects, ambiguous sends), so a fill still settling would be corrected away and its edge lost from PnL. 0: two reconciles in a row suffice.",
      format: "mm-int",
      default: 30_000,
      env: "MM_RECONCILE_DRIFT_SETTLE_MS",
      min: 0,
      max: 3_600_000,
    }),
    onStart: setting<OnStartPolicy>({
      doc: "Orders of the wallet already open when mm starts: cancel them (safe default), or adopt them as this run's quotes.",
      format: ["cancel", "adopt"],
      default: "cancel",
      env: "MM_RECONCILE_ON_START",
    }),
  },
  shutdown: {
    timeoutMs: setting({
      doc: "On SIGINT/SIGTERM/SIGHUP, the bound of the whole stop, in ms: the cancels are tried for its first 80% (what is still open then exits 1), the rest is kept for closing the connections and the journal, and a stop still running at the bound is cut, exit 1; at least 1000 (a cancel-all and the read that confirms it are two round trips to the exchange).",
      format: "mm-int",
      default: 10_000,
      env: "MM_SHUTDOWN_TIMEOUT_MS",
      min: 1_000,
      max: 300_000,
      rangeNote:
        "the stop sends a cancel-all and reads the open orders back, two round trips to the exchange, within 80 % of it",
    }),
  },
  metrics: {
    host: setting({
      doc: "Address the /metrics, /health and /ready server binds (mm run and mm paper): an IP address or a host name of this machine, without a port (that is metrics.port). Loopback by default: open it deliberately.",
      format: "mm-host",
      default: "127.0.0.1",
      env: "MM_METRICS_HOST",
    }),
    port: setting({
      doc: "Port of the /metrics, /health and /ready server; 0 picks a free port (logged at start).",
      format: "mm-int",
      default: 9464,
      env: "MM_METRICS_PORT",
      min: 0,
      max: 65_535,
    }),
    maxMarketLabels: setting({
      doc: 'Markets that keep their own `market` label in metrics; later ones are reported as market="other" (bounded cardinality).',
      format: "mm-int",
      default: 50,
      env: "MM_METRICS_MAX_MARKET_LABELS",
      min: 1,
      max: 10_000,
    }),
  },
  journal: {
    enabled: setting<"true" | "false">({
      doc: "Keep the journal (SQLite): every order sent and its outcome, every cancel sent, fill and fee, counts of intents dropped unsent, and periodic PnL and inventory snapshots. mm run restores PnL and its own order ids from it at start; mm report reads it.",
      format: ["true", "false"],
      default: "true",
      env: "MM_JOURNAL_ENABLED",
    }),
    path: setting({
      doc: "Journal file. Empty: $XDG_DATA_HOME/mm/journal.sqlite, else ~/.local/share/mm/journal.sqlite for mm run and mm report; a new file in a private temp folder for each mm paper run (its mock starts fresh), which never takes this setting, from a file or MM_JOURNAL_PATH (a layered live config or a sourced live env file names the live journal): mm paper --journal FILE names a paper journal. Relative paths resolve against the working directory.",
      format: "mm-path",
      default: "",
      env: "MM_JOURNAL_PATH",
    }),
    snapshotIntervalMs: setting({
      doc: "Period of the journal's PnL and inventory snapshots, in ms: 0 (only at stop) or at least 1000. Fills, fees and reconciles write their accounts as they happen regardless.",
      format: "mm-int",
      default: 60_000,
      env: "MM_JOURNAL_SNAPSHOT_INTERVAL_MS",
      min: 1_000,
      max: 86_400_000,
      zeroIsOff: true,
      rangeNote:
        "0 takes snapshots only at stop; a shorter period writes a PnL row to the journal on every tick of its timer",
    }),
    synchronous: setting<JournalSyncSetting>({
      doc: "normal: every committed write survives a crash or kill of the process (WAL); a power loss may roll back the last instants, never corrupt the file. full: also survives power loss, at one fsync per journaled event.",
      format: ["normal", "full"],
      default: "normal",
      env: "MM_JOURNAL_SYNCHRONOUS",
    }),
    retentionDays: setting({
      doc: "Days of order detail the journal keeps: order intents, send outcomes, counts of intents dropped unsent, and PnL and inventory snapshots older than this are deleted (hourly, in small steps; the freed space is reused, so the file stops growing). Never deleted: fills, fees, the account rows they moved (mm report), each token's last account, each account's newest PnL snapshot with the kill switch's drawdown, and orders a run that did not stop cleanly may have left resting (restore). 0 = keep everything.",
      format: "mm-int",
      default: 7,
      env: "MM_JOURNAL_RETENTION_DAYS",
      min: 0,
      max: 3_650,
    }),
  },
};
