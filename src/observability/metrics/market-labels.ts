import type { Gauge } from "prom-client";
import { LabelCap, OTHER } from "./label-cap.js";

/** What the metrics need to know of a quoted token (a TokenMarket fits). */
export interface MarketLabelSource {
  readonly tokenId: string;
  readonly marketId: string;
  /** Outcome label ("YES", "NO", a team…). */
  readonly outcome: string;
}

/** The `market` and `outcome` labels of one token. */
export interface TokenLabels {
  readonly market: string;
  readonly outcome: string;
}

const UNKNOWN: TokenLabels = { market: OTHER, outcome: OTHER };

/**
 * Maps tokens to bounded `market` / `outcome` label values. A market is named by its slug when one
 * is given (readable on a dashboard), else by its id. Markets are admitted in registration order up
 * to the cap; later markets, and tokens never registered, are reported under `other`.
 * @example
 * const labels = new MarketLabels(20);
 * labels.register(markets.tokens, (id) => markets.slugOf(id));
 * labels.ofToken(tokenId) // { market: "arg-vs-fra-winner", outcome: "YES" }
 */
export class MarketLabels {
  readonly #cap: LabelCap;
  readonly #tokens = new Map<string, TokenLabels>();
  readonly #info = new Map<string, { marketId: string }>();
  readonly #markets = new Map<string, string>();

  constructor(maxMarkets: number) {
    this.#cap = new LabelCap(maxMarkets);
  }

  /** Registers tokens (idempotent); `slugOf` names markets. */
  register(tokens: readonly MarketLabelSource[], slugOf?: (marketId: string) => string | undefined): void {
    for (const t of tokens) {
      let market = this.#markets.get(t.marketId);
      if (market === undefined) {
        market = this.#cap.of(slugOf?.(t.marketId) ?? t.marketId);
        this.#markets.set(t.marketId, market);
      }
      const outcome = market === OTHER ? OTHER : t.outcome;
      this.#tokens.set(t.tokenId, { market, outcome });
      this.#info.set(t.tokenId, { marketId: t.marketId });
    }
  }

  /** Labels of a token; `other` for both when it was never registered. */
  ofToken(tokenId: string): TokenLabels {
    return this.#tokens.get(tokenId) ?? UNKNOWN;
  }

  /** The `market` label of a market id (`other` when unregistered or beyond the cap). */
  ofMarket(marketId: string | undefined): string {
    return marketId === undefined ? OTHER : (this.#markets.get(marketId) ?? OTHER);
  }

  /** The market id a token belongs to, when registered. */
  marketIdOf(tokenId: string): string | undefined {
    return this.#info.get(tokenId)?.marketId;
  }

  /** Every registered token with its labels (plain label objects, safe to pass to prom-client). */
  tokens(): IterableIterator<[string, TokenLabels]> {
    return this.#tokens.entries();
  }

  /** Distinct `market` label values in use (kept markets, plus `other` when anything folded). */
  marketValues(): string[] {
    return [...new Set(this.#markets.values())];
  }
}

/** The largest value per (market, outcome): several tokens fold into market=other. */
export class MaxByLabels {
  readonly #m = new Map<string, { l: TokenLabels; v: number }>();

  /** Keeps `v` for `l` unless a larger value was added for the same labels. */
  add(l: TokenLabels, v: number): void {
    const key = `${l.market}\u0000${l.outcome}`;
    const prev = this.#m.get(key);
    if (prev === undefined || v > prev.v) this.#m.set(key, { l, v });
  }

  /** Sets each (market, outcome)'s largest value on `g`. */
  setOn(g: Gauge<"market" | "outcome">): void {
    for (const { l, v } of this.#m.values()) g.set({ market: l.market, outcome: l.outcome }, v);
  }
}
