import { MmError, ValidationError } from "../core/errors.js";
import { assertFeeBps } from "../core/fees.js";
import type { MarketStatus } from "../core/types.js";
import { MARKET_STATUSES } from "../core/types.js";
import type { MarketSpec, MarketView, OutcomeSpec } from "./types.js";

/** Where a token lives: its market and its index among the market's outcomes. */
export interface TokenRef {
  readonly market: MarketEntry;
  readonly outcomeIndex: number;
  readonly outcome: OutcomeSpec;
}

/** A market as the registry holds it (status mutable through the registry only). */
export interface MarketEntry {
  readonly spec: MarketSpec;
  readonly minSize: bigint;
  status: MarketStatus;
}

const TOKEN_ID = /^\d{1,78}$/;

/**
 * The venue's markets and the token → market index. Fee parameters resolve here: a market's
 * `feeTakerBps: null` inherits the venue default, an absent `makerFeeBps` the venue maker fee.
 */
export class MarketRegistry {
  readonly #markets = new Map<string, MarketEntry>();
  readonly #tokens = new Map<string, TokenRef>();
  readonly #defaultTakerBps: number;
  readonly #defaultMakerBps: number;

  constructor(defaultTakerBps: number, defaultMakerBps: number) {
    this.#defaultTakerBps = assertFeeBps(defaultTakerBps);
    this.#defaultMakerBps = assertFeeBps(defaultMakerBps);
  }

  /** Adds a market; throws ValidationError on a malformed spec or a duplicate market or token id. */
  register(spec: MarketSpec): MarketEntry {
    if (this.#markets.has(spec.marketId)) {
      throw new ValidationError("market_exists", `market ${spec.marketId} is already registered`, {
        marketId: spec.marketId,
      });
    }
    validateSpec(spec);
    for (const o of spec.outcomes) {
      if (this.#tokens.has(o.tokenId)) {
        throw new ValidationError("token_exists", `token ${o.tokenId} is already registered`, {
          tokenId: o.tokenId,
        });
      }
    }
    const entry: MarketEntry = { spec, minSize: spec.minSize ?? 1n, status: spec.status };
    this.#markets.set(spec.marketId, entry);
    spec.outcomes.forEach((outcome, outcomeIndex) => {
      this.#tokens.set(outcome.tokenId, { market: entry, outcomeIndex, outcome });
    });
    return entry;
  }

  /** Market by id. */
  get(marketId: string): MarketEntry | undefined {
    return this.#markets.get(marketId);
  }

  /** Market and outcome of a token. */
  token(tokenId: string): TokenRef | undefined {
    return this.#tokens.get(tokenId);
  }

  /** Every market, in registration order. */
  all(): MarketEntry[] {
    return [...this.#markets.values()];
  }

  /** Changes a market's status; throws `market_not_found` / `invalid_market_status`. */
  setStatus(marketId: string, status: MarketStatus): MarketEntry {
    const m = this.#markets.get(marketId);
    if (m === undefined) {
      throw new MmError("market_not_found", `no market ${marketId}`, { marketId });
    }
    if (!MARKET_STATUSES.includes(status)) {
      throw new ValidationError("invalid_market_status", `unknown market status ${status}`, { status });
    }
    m.status = status;
    return m;
  }

  /** Taker fee parameter in force for a market. */
  takerBps(m: MarketEntry): number {
    return m.spec.feeTakerBps ?? this.#defaultTakerBps;
  }

  /** Maker fee parameter in force for a market. */
  makerBps(m: MarketEntry): number {
    return m.spec.makerFeeBps ?? this.#defaultMakerBps;
  }

  /** A detached view for callers. */
  view(m: MarketEntry): MarketView {
    const { minSize: _min, makerFeeBps: _maker, ...rest } = m.spec;
    return {
      ...rest,
      outcomes: m.spec.outcomes.map((o) => ({ ...o })),
      status: m.status,
      minSize: m.minSize,
      effectiveTakerBps: this.takerBps(m),
      effectiveMakerBps: this.makerBps(m),
    };
  }

  /**
   * Resolves the placement's `outcome`: a label (case-insensitive) or a decimal index.
   * Undefined when neither matches.
   */
  outcomeOf(m: MarketEntry, outcome: string): { index: number; spec: OutcomeSpec } | undefined {
    const wanted = outcome.trim().toLowerCase();
    const byLabel = m.spec.outcomes.findIndex((o) => o.label.toLowerCase() === wanted);
    const index = byLabel >= 0 ? byLabel : /^\d{1,3}$/.test(wanted) ? Number(wanted) : -1;
    const spec = m.spec.outcomes[index];
    return spec === undefined ? undefined : { index, spec };
  }
}

function validateSpec(spec: MarketSpec): void {
  const bad = (why: string): never => {
    throw new ValidationError("invalid_market", `market ${spec.marketId}: ${why}`, {
      marketId: spec.marketId,
    });
  };
  if (spec.marketId === "") bad("empty marketId");
  // Every on-tick price needs an exact micro-unit form and a non-empty band [tick, 1 − tick].
  if (spec.tickSize < 1n || spec.tickSize > 500_000n) bad("tickSize must be within [1, 500000] micro-units");
  if (spec.minSize !== undefined && spec.minSize < 1n) bad("minSize must be at least 1 micro-unit");
  if (spec.outcomes.length === 0) bad("at least one outcome is required");
  if (new Set(spec.outcomes.map((o) => o.label.toLowerCase())).size !== spec.outcomes.length) {
    bad("outcome labels must be distinct");
  }
  for (const o of spec.outcomes) {
    if (!TOKEN_ID.test(o.tokenId)) bad(`token id ${o.tokenId} is not a uint256 decimal string`);
  }
  if (spec.feeTakerBps !== null) assertFeeBps(spec.feeTakerBps);
  if (spec.makerFeeBps !== undefined) assertFeeBps(spec.makerFeeBps);
  if (!MARKET_STATUSES.includes(spec.status)) bad(`unknown status ${spec.status}`);
}
