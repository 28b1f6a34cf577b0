import type { TokenMarket } from "../../core/trading.js";
import type { MarketSpec } from "../../venue/types.js";

/** One token to simulate, with its market's parameters (from the config or found in the data). */
export interface TokenSetting {
  readonly tokenId: string;
  readonly conditionId: string;
  /** Default: the conditionId (one market per condition). */
  readonly marketId?: string;
  /** Outcome label; default YES / NO by position. */
  readonly outcome?: string;
  /** Position among the market's outcomes; default the order tokens are listed in. */
  readonly outcomeIndex?: number;
  readonly tickMicro: number;
  readonly minSizeMicro: bigint;
  readonly feeTakerBps: number;
  /** Epoch ms of the market's close (the A–S horizon when no fixed horizon is set). */
  readonly closesAtMs?: number;
}

/** The engine's token list and the venue's market specs, built from the same settings. */
export interface MarketSetup {
  readonly tokens: readonly TokenMarket[];
  readonly specs: readonly MarketSpec[];
}

const LABELS = ["YES", "NO"];

/**
 * Groups tokens into markets (by marketId, default conditionId), orders each market's outcomes by
 * outcomeIndex (then listing order) and numbers them 0, 1, …. The venue gets each market's tick
 * and taker fee from its first token; its minimum size is 1 micro-share, so that any level size of
 * the recording can be mirrored (the engine still honours the configured minimum).
 * @example buildMarkets([{ tokenId: "1", conditionId: "0xab…", tickMicro: 10_000, minSizeMicro: 1n, feeTakerBps: 0 }])
 */
export function buildMarkets(settings: readonly TokenSetting[]): MarketSetup {
  const groups = new Map<string, TokenSetting[]>();
  for (const s of settings) {
    const id = s.marketId ?? s.conditionId;
    const list = groups.get(id);
    if (list === undefined) groups.set(id, [s]);
    else list.push(s);
  }
  const tokens: TokenMarket[] = [];
  const specs: MarketSpec[] = [];
  for (const [marketId, group] of groups) {
    const sorted = group
      .map((s, i) => ({ s, i }))
      .sort((a, b) => (a.s.outcomeIndex ?? a.i) - (b.s.outcomeIndex ?? b.i) || a.i - b.i)
      .map((x) => x.s);
    const first = sorted[0] as TokenSetting;
    const outcomes = sorted.map((s, i) => ({
      label: s.outcome ?? LABELS[i] ?? `OUTCOME${i}`,
      tokenId: s.tokenId,
    }));
    specs.push({
      marketId,
      conditionId: first.conditionId,
      outcomes,
      tickSize: BigInt(first.tickMicro),
      minSize: 1n,
      feeTakerBps: first.feeTakerBps,
      status: "OPEN",
      negRisk: false,
    });
    sorted.forEach((s, i) => {
      tokens.push({
        tokenId: s.tokenId,
        marketId,
        conditionId: first.conditionId,
        outcome: (outcomes[i] as { label: string }).label,
        outcomeIndex: i,
        tickMicro: first.tickMicro,
        minSizeMicro: s.minSizeMicro,
        feeTakerBps: first.feeTakerBps,
        negRisk: false,
        closesAtMs: s.closesAtMs,
        status: "OPEN",
      });
    });
  }
  return { tokens, specs };
}
