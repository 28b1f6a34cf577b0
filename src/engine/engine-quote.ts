import type { OpenQuote, StrategyContext } from "../../strategies/types.js";
import { sigma } from "../../strategies/volatility.js";
import type { BookState } from "../book/book-state.js";
import type { DesiredQuote } from "../core/trading.js";
import type { Intent } from "../execution/intents.js";
import { type GateReason, tokenDecision } from "../risk/decision.js";
import type { BookHealth } from "../risk/gates.js";
import type { EngineCore } from "./engine-core.js";
import type { TokenSlot } from "./engine-tokens.js";

const WALLET_GATES: ReadonlySet<GateReason> = new Set(["kill_switch", "platform_frozen", "error_rate_halt"]);

/** How the risk guard judges a token whose tracker has not reported yet: waiting for its snapshot. */
const NO_BOOK: BookHealth = { status: "resyncing", crossed: false };

/**
 * One quoting step for one token: strategy → risk → order manager → queue.
 * - Quoting disabled (before start, while stopping), or a risk gate holding (kill switch, platform
 *   frozen, error halt, market not OPEN, book crossed / resyncing / stale): the token's live quotes are
 *   cancelled and nothing is placed.
 * - Otherwise, with a quotable book (the tracker says synced and not crossed): the strategy quotes
 *   from the context (inventory relative to the baseline, σ, the clock's time), the risk guard
 *   filters, and the order manager turns the difference with the live orders into intents.
 * - A book that is not quotable without a gate (one side empty) gives the strategy nothing to quote
 *   from; the desired set is empty, so live quotes go.
 * A strategy that throws is logged and treated as "no quote" (never a made-up price).
 * @returns the intents sent (for tests and the benchmark).
 */
export function quoteToken(core: EngineCore, tokenId: string): readonly Intent[] {
  const slot = core.tokens.get(tokenId);
  if (slot === undefined) return [];
  const now = core.clock.now();
  const token = { tokenId, marketId: slot.market.marketId, tickMicro: slot.market.tickMicro };
  const gate = core.risk.mustCancel(tokenId, now);
  if (!core.quotingEnabled() || gate !== undefined || slot.strategy === undefined) {
    slot.quoting = false;
    const reason = gate ?? (core.quotingEnabled() ? "no_strategy" : "quoting_disabled");
    // Wallet-wide gates were logged once when they tripped; token and market gates are logged per token.
    if (gate !== undefined && !WALLET_GATES.has(gate)) {
      core.decisions.step(tokenId, [tokenDecision(gate, tokenId, token.marketId)], now);
    }
    return finish(core, tokenId, core.om.cancelAllFor(tokenId, reason, now), 0, now);
  }
  const health: BookHealth = slot.bookState ?? NO_BOOK;
  const raw = slot.book === undefined || !isQuotable(slot.bookState) ? [] : strategyQuotes(core, slot, now);
  const { allowed, decisions } = core.risk.filter(
    { market: slot.market, book: health, inventory: core.positions.exposure(tokenId) },
    raw,
    now,
  );
  core.decisions.step(tokenId, decisions, now);
  slot.quoting = allowed.length > 0;
  return finish(core, tokenId, core.om.diff(token, allowed, now), allowed.length, now);
}

function finish(
  core: EngineCore,
  tokenId: string,
  intents: readonly Intent[],
  desired: number,
  now: number,
): readonly Intent[] {
  if (intents.length === 0) return intents;
  let places = 0;
  for (const i of intents) if (i.kind === "place") places++;
  // Reported before sending: the queue may start signing synchronously, and this marks the step's end.
  core.emit({ type: "quote", atMs: now, tokenId, desired, places, cancels: intents.length - places });
  core.send(intents);
  return intents;
}

function isQuotable(state: BookState | undefined): boolean {
  return state?.quotable === true;
}

function strategyQuotes(core: EngineCore, slot: TokenSlot, now: number): DesiredQuote[] {
  const { market, book, bookState, strategy } = slot;
  if (book === undefined || bookState === undefined || strategy === undefined) return [];
  const ctx: StrategyContext = {
    market,
    book,
    bookState: bookState.status,
    quotable: true,
    inventory: core.positions.position(market.tokenId),
    openQuotes: openQuotes(core, market.tokenId),
    nowMs: now,
    volatility: sigma(slot.vol),
  };
  try {
    return strategy.quote(ctx);
  } catch (err) {
    core.log.error({ err, tokenId: market.tokenId, strategy: strategy.name }, "strategy failed: no quote");
    return [];
  }
}

/** Our orders resting or on their way on the token (not those being cancelled). */
function openQuotes(core: EngineCore, tokenId: string): OpenQuote[] {
  const out: OpenQuote[] = [];
  for (const o of core.store.live(tokenId)) {
    if (o.state !== "open" && o.state !== "placing") continue;
    out.push({
      side: o.side,
      level: o.level,
      priceMicro: o.priceMicro,
      sizeMicro: o.sizeMicro - o.filledMicro,
    });
  }
  return out;
}
