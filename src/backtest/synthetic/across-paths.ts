import type { RunSummary } from "../report/summary.js";
import { meanStdJson, RunningMeanStd } from "./stats.js";

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
  /**
   * Per horizon, as a replay's markouts: the fills counted and those left unresolved (their
   * horizon past the path's end), summed over every path; the markout per share over the paths
   * with a counted fill, and the total over all.
   */
  readonly markouts: readonly {
    readonly horizonMs: number;
    readonly fills: number;
    readonly unresolved: number;
    readonly perShare: AcrossJson;
    readonly total: AcrossJson;
  }[];
}

type Value = string | number | null | undefined;

/** One markout horizon's sums and statistics as the paths are added. */
interface Horizon {
  readonly horizonMs: number;
  fills: number;
  unresolved: number;
  readonly perShare: Figure;
  readonly total: Figure;
}

/** One figure's running statistics over the paths that have it. */
class Figure {
  readonly #stats = new RunningMeanStd();

  /** Counts the value, or nothing when the path does not have the figure. */
  add(v: Value): void {
    if (v !== null && v !== undefined) this.#stats.add(v);
  }

  json(): AcrossJson {
    const n = this.#stats.n;
    return n === 0 ? { paths: 0, mean: null, std: null } : { paths: n, ...meanStdJson(this.#stats.result()) };
  }
}

/**
 * Every figure a replay's summary reports (issue 6 item 4: PnL realised and unrealised, fees, maker
 * and taker volume, inventory statistics, max drawdown, Sharpe, quote uptime, markouts), as its
 * mean and sample standard deviation across the paths (PnL total, final inventory and fill count
 * are the synthetic summary's own top-level figures). A figure a path does not have (no Sharpe on
 * a short path, no markout without a resolved fill) is left out of that figure's statistics, and
 * `paths` says over how many it is; none at all gives `{ paths: 0, mean: null, std: null }`.
 * Streaming: each path's summary is added as it ends and dropped, so memory does not grow with the
 * number of paths. Numbers (Sharpe, uptime: already rounded to 6 places in the path's summary) are
 * taken at their shortest decimal spelling, so the statistics stay exact.
 * @example const a = new AcrossPathsStats(); for (const r of results) a.add(r.summary); a.json().sharpe // { paths: 200, mean: "1.93…", std: "0.41…" }
 */
export class AcrossPathsStats {
  readonly #realised = new Figure();
  readonly #unrealised = new Figure();
  readonly #fees = new Figure();
  readonly #makerVolume = new Figure();
  readonly #takerVolume = new Figure();
  readonly #inventoryMean = new Figure();
  readonly #inventoryMaxAbs = new Figure();
  readonly #maxDrawdown = new Figure();
  readonly #sharpe = new Figure();
  readonly #quoteUptime = new Figure();
  // The horizons are the first path's (every path of a run has the same report settings).
  #markouts: Horizon[] | undefined;

  /** Adds one path's figures. */
  add(s: RunSummary): void {
    const inv = s.inventory[0];
    this.#realised.add(s.pnl.realised);
    this.#unrealised.add(s.pnl.unrealised);
    this.#fees.add(s.fees.value);
    this.#makerVolume.add(s.fills.maker.volume);
    this.#takerVolume.add(s.fills.taker.volume);
    this.#inventoryMean.add(inv?.mean);
    this.#inventoryMaxAbs.add(inv?.maxAbs);
    this.#maxDrawdown.add(s.drawdown.max);
    this.#sharpe.add(s.sharpe.annualised);
    this.#quoteUptime.add(s.quoteUptime);
    this.#markouts ??= s.markouts.map((m) => ({
      horizonMs: m.horizonMs,
      fills: 0,
      unresolved: 0,
      perShare: new Figure(),
      total: new Figure(),
    }));
    for (const m of this.#markouts) {
      const at = s.markouts.find((x) => x.horizonMs === m.horizonMs);
      m.fills += at?.fills ?? 0;
      m.unresolved += at?.unresolved ?? 0;
      m.perShare.add(at?.perShare);
      m.total.add(at?.total);
    }
  }

  /** The statistics of the paths added so far. */
  json(): AcrossPaths {
    return {
      realised: this.#realised.json(),
      unrealised: this.#unrealised.json(),
      fees: this.#fees.json(),
      makerVolume: this.#makerVolume.json(),
      takerVolume: this.#takerVolume.json(),
      inventory: { mean: this.#inventoryMean.json(), maxAbs: this.#inventoryMaxAbs.json() },
      maxDrawdown: this.#maxDrawdown.json(),
      sharpe: this.#sharpe.json(),
      quoteUptime: this.#quoteUptime.json(),
      markouts: (this.#markouts ?? []).map((m) => ({
        horizonMs: m.horizonMs,
        fills: m.fills,
        unresolved: m.unresolved,
        perShare: m.perShare.json(),
        total: m.total.json(),
      })),
    };
  }
}
