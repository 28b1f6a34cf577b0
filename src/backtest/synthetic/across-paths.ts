import type { PathResult } from "./run-path.js";
import { meanStd, meanStdJson } from "./stats.js";

/**
 * Mean and sample standard deviation of a figure over the paths that have it; null when none has
 * it (kept an object, so that a sweep ranked by `acrossPaths.sharpe.mean` ranks such a point last).
 */
export interface AcrossJson {
  /** Paths that have the figure (a Sharpe needs two samples, a markout a resolved fill). */
  readonly paths: number;
  readonly mean: string | null;
  readonly std: string | null;
}

/** The report figures of every path, as mean and standard deviation across paths. */
export interface AcrossPaths {
  readonly realised: AcrossJson;
  readonly unrealised: AcrossJson;
  /** The fees' value (USDC fees plus share fees at their fill prices, as `fees.value`). */
  readonly fees: AcrossJson;
  readonly makerVolume: AcrossJson;
  readonly takerVolume: AcrossJson;
  /** The token's time-weighted mean inventory and its largest absolute inventory. */
  readonly inventory: { readonly mean: AcrossJson; readonly maxAbs: AcrossJson };
  readonly maxDrawdown: AcrossJson;
  /** The annualised Sharpe, over the paths long enough to have one. */
  readonly sharpe: AcrossJson;
  readonly quoteUptime: AcrossJson;
  /** Per horizon: the markout per share over the paths with a resolved fill, and the total over all. */
  readonly markouts: readonly {
    readonly horizonMs: number;
    readonly perShare: AcrossJson;
    readonly total: AcrossJson;
  }[];
}

/**
 * Every figure a replay's summary reports (issue 6 item 4: PnL realised and unrealised, fees, maker
 * and taker volume, inventory statistics, max drawdown, Sharpe, quote uptime, markouts), as its
 * mean and sample standard deviation across the paths (PnL total, final inventory and fill count
 * are the synthetic summary's own top-level figures). A figure a path does not have (no Sharpe on
 * a short path, no markout without a resolved fill) is left out of that figure's statistics, and
 * `paths` says over how many it is; none at all gives `{ paths: 0, mean: null, std: null }`.
 * @example acrossPaths(results).sharpe // { paths: 200, mean: "1.93…", std: "0.41…" }
 */
export function acrossPaths(results: readonly PathResult[]): AcrossPaths {
  const s = results.map((r) => r.summary);
  const inv = s.map((x) => x.inventory[0]);
  const horizons = s[0]?.markouts.map((m) => m.horizonMs) ?? [];
  return {
    realised: stat(s.map((x) => x.pnl.realised)),
    unrealised: stat(s.map((x) => x.pnl.unrealised)),
    fees: stat(s.map((x) => x.fees.value)),
    makerVolume: stat(s.map((x) => x.fills.maker.volume)),
    takerVolume: stat(s.map((x) => x.fills.taker.volume)),
    inventory: { mean: stat(inv.map((i) => i?.mean)), maxAbs: stat(inv.map((i) => i?.maxAbs)) },
    maxDrawdown: stat(s.map((x) => x.drawdown.max)),
    sharpe: stat(s.map((x) => x.sharpe.annualised)),
    quoteUptime: stat(s.map((x) => x.quoteUptime)),
    markouts: horizons.map((horizonMs) => {
      const at = s.map((x) => x.markouts.find((m) => m.horizonMs === horizonMs));
      return { horizonMs, perShare: stat(at.map((m) => m?.perShare)), total: stat(at.map((m) => m?.total)) };
    }),
  };
}

/**
 * Mean and std of the values present. Numbers (Sharpe, uptime: already rounded to 6 places in the
 * path's summary) are taken at their shortest decimal spelling, so the statistics stay exact.
 */
function stat(values: readonly (string | number | null | undefined)[]): AcrossJson {
  const present = values.flatMap((v) => (v === null || v === undefined ? [] : [String(v)]));
  if (present.length === 0) return { paths: 0, mean: null, std: null };
  return { paths: present.length, ...meanStdJson(meanStd(present)) };
}
