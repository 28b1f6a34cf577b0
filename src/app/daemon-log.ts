import type { MmConfig } from "../config/types.js";
import type { Clock, TimerId } from "../core/clock.js";
import type { TokenMarket } from "../core/trading.js";
import { weiToString } from "../core/wei.js";
import type { Engine } from "../engine/engine-api.js";
import type { EngineEvent } from "../engine/engine-events.js";
import type { Logger } from "../observability/logger.js";
import { type QuotedMarkets, UNQUOTABLE } from "./markets.js";

/** How often the daemon logs a one-line status. */
const STATUS_EVERY_MS = 30_000;
/** Slugs named in the start-up line before "and N more". */
const SLUGS_SHOWN = 12;

const usdc = (micro: bigint): string => weiToString(micro);
const signed = (micro: bigint): string => (micro > 0n ? `+${usdc(micro)}` : usdc(micro));

/**
 * The daemon's own log lines, for an operator watching it: what is quoted and with what, each fill
 * as it happens (side, size, price, market, position and PnL after it), reconcile findings that
 * matter (orphans, backfilled fills, drift), and a status line every 30 s. The engine logs its
 * decisions itself.
 */
export class DaemonReporter {
  readonly #log: Logger;
  readonly #markets: QuotedMarkets;
  readonly #clock: Clock;
  readonly #byToken: Map<string, TokenMarket>;
  #timer: TimerId | undefined;
  #fills = 0;

  constructor(logger: Logger, markets: QuotedMarkets, clock: Clock) {
    this.#log = logger;
    this.#markets = markets;
    this.#clock = clock;
    this.#byToken = new Map(markets.tokens.map((t) => [t.tokenId, t]));
  }

  /** Start-up line: where, who, what and how. */
  announce(config: MmConfig, session: string, maker: string): void {
    const { slugs, tokens } = this.#markets;
    const shown = slugs.slice(0, SLUGS_SHOWN).join(", ");
    const more = slugs.length > SLUGS_SHOWN ? ` and ${slugs.length - SLUGS_SHOWN} more` : "";
    const strategies = [...new Set(tokens.map((t) => this.#markets.strategyFor(t)?.name ?? "none"))];
    this.#log.info(
      {
        exchange: config.exchange.baseUrl,
        ws: config.exchange.wsUrl,
        maker,
        session,
        markets: slugs.length,
        tokens: tokens.length,
        strategies,
        onStart: config.reconcile.onStart,
        rateLimitPerMin: config.queue.rateLimitPerMin,
      },
      `quoting ${slugs.length} market(s), ${tokens.length} token(s), with ${strategies.join(", ")}: ${shown}${more}`,
    );
    for (const { market, why } of this.#markets.unquotable) {
      this.#log.warn(
        { slug: market.slug, marketId: market.id, status: market.status, why },
        `market not quoted: ${market.slug} ${UNQUOTABLE[why]}`,
      );
    }
  }

  /** After the engine started: the first status line, then one every 30 s. */
  started(engine: Engine): void {
    this.#status(engine, "started");
    this.#log.info(
      "each fill is logged as it happens and a status line every 30 s; SIGINT/SIGTERM/SIGHUP cancels every quote, then exits",
    );
    const tick = () => {
      this.#status(engine, "status");
      this.#timer = this.#clock.setTimer(STATUS_EVERY_MS, tick);
    };
    this.#timer = this.#clock.setTimer(STATUS_EVERY_MS, tick);
  }

  /** Engine events worth a line of their own. */
  onEvent(e: EngineEvent): void {
    if (e.type === "fill") {
      this.#fills++;
      const t = this.#byToken.get(e.fill.tokenId);
      const where =
        t === undefined ? e.fill.tokenId : `${this.#markets.slugOf(t.marketId) ?? t.marketId} ${t.outcome}`;
      this.#log.info(
        {
          tradeId: e.fill.tradeId,
          clientOrderId: e.fill.clientOrderId,
          source: e.source,
          positionMicro: e.positionMicro.toString(),
          pnlMicro: e.pnlMicro.toString(),
        },
        `fill: ${e.fill.side} ${weiToString(e.fill.sizeMicro)} @ ${weiToString(BigInt(e.fill.priceMicro))} ${where}` +
          ` (position ${signed(e.positionMicro)}, PnL ${signed(e.pnlMicro)} USDC)`,
      );
    } else if (e.type === "reconcile") {
      const s = e.summary;
      if (s.orphans + s.adopted + s.backfilled + s.corrections.length === 0) return;
      this.#log.info(
        {
          reason: s.reason,
          orphans: s.orphans,
          adopted: s.adopted,
          backfilled: s.backfilled,
          corrections: s.corrections.length,
        },
        `reconcile (${s.reason}): ${s.orphans} orphan(s), ${s.adopted} adopted, ${s.backfilled} missed fill(s) backfilled`,
      );
    }
  }

  /** Stops the status timer. */
  close(): void {
    if (this.#timer !== undefined) this.#clock.cancelTimer(this.#timer);
    this.#timer = undefined;
  }

  #status(engine: Engine, what: string): void {
    const s = engine.status();
    this.#log.info(
      { ...s, pnlMicro: s.pnlMicro.toString(), fills: this.#fills },
      `${what}: ${s.quotingTokens} token(s) quoted, ${s.openOrders} open order(s), ` +
        // Queued placements are quotes the bot means to have: without them a line read "0 open".
        (s.queuedPlacements === undefined ? "" : `${s.queuedPlacements} placement(s) queued, `) +
        `${s.inFlight} in flight, ` +
        `${this.#fills} fill(s), PnL ${signed(s.pnlMicro)} USDC${s.killSwitch ? ", KILL SWITCH ON" : ""}`,
    );
  }
}
