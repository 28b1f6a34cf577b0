import { createHash } from "node:crypto";
import { units } from "../report/decimal.js";
import { type RunSummary, summaryJson } from "../report/summary.js";
import { AcrossPathsStats } from "./across-paths.js";
import type { PathResult } from "./run-path.js";
import type { Scenario } from "./scenario.js";
import { meanStdJson, RunningMeanStd } from "./stats.js";

/** One path's main figures, as the summary's `perPath` lists them. */
export interface PerPathRow {
  readonly path: number;
  readonly pnl: string;
  readonly finalInventory: string;
  readonly fills: number;
  readonly maxDrawdown: string;
  readonly quoteUptime: number | null;
}

/**
 * A short fingerprint of a path's whole JSON summary (SHA-256 of summaryJson, 96 bits in
 * base64url): what the HTML report's re-run of a path must reproduce, kept instead of the summary.
 * @example pathDigest(result.summary) // "q3Jx0…" (16 characters)
 */
export function pathDigest(summary: RunSummary): string {
  return createHash("sha256").update(summaryJson(summary)).digest().subarray(0, 12).toString("base64url");
}

/**
 * Folds Monte-Carlo paths into the synthetic summary as they end, in memory that does not grow with
 * the paths' summaries: running sums for every mean and standard deviation, and per path only the
 * `perPath` row the summary lists and its digest (pathDigest). Paths must be added in path order.
 * @example const agg = new SyntheticAggregate(); agg.add(await runPath(sc, 0)); agg.summary(sc)
 */
export class SyntheticAggregate {
  readonly #pnl = new RunningMeanStd();
  readonly #inventory = new RunningMeanStd();
  readonly #fills = new RunningMeanStd();
  readonly #across = new AcrossPathsStats();
  readonly #rows: PerPathRow[] = [];
  readonly #digests: string[] = [];
  #clampedPaths = 0;
  #clampedSteps = 0;
  #openAtEnd = 0;

  /** Adds one path's result; nothing of it is kept but its row and digest. */
  add(r: PathResult): void {
    const s = r.summary;
    const position = s.tokens[0]?.position ?? "0";
    this.#pnl.add(s.pnl.total);
    this.#inventory.add(position);
    this.#fills.add(String(s.fills.count));
    this.#across.add(s);
    if (r.clampedSteps > 0) this.#clampedPaths++;
    this.#clampedSteps += r.clampedSteps;
    this.#openAtEnd += r.openAtEnd;
    this.#rows.push({
      path: r.path,
      pnl: s.pnl.total,
      finalInventory: position,
      fills: s.fills.count,
      maxDrawdown: s.drawdown.max,
      quoteUptime: s.quoteUptime,
    });
    this.#digests.push(pathDigest(s));
  }

  /** Each path's pathDigest, in path order. */
  get digests(): readonly string[] {
    return this.#digests;
  }

  /**
   * The run's JSON summary: mean and sample standard deviation across paths of total PnL, final
   * inventory and fills, of every other report figure (acrossPaths), plus each path's main figures.
   */
  summary(sc: Scenario) {
    return {
      mm: "backtest-summary",
      version: 1,
      kind: "synthetic",
      description: sc.description ?? null,
      seed: sc.seed,
      paths: this.#rows.length,
      strategy: sc.strategyRaw,
      process: {
        s0: sc.process.s0,
        sigma: sc.process.sigma,
        dtMs: sc.process.dtMs,
        horizonMs: sc.horizonMs,
        increments: sc.process.increments,
        bounded: sc.process.bounds !== undefined,
        // Only an unbounded mid can leave what the book shows; a bounded run's summary stays as it was.
        ...(sc.process.bounds !== undefined
          ? {}
          : { clamped: { paths: this.#clampedPaths, steps: this.#clampedSteps } }),
      },
      fillModel: {
        A: sc.fills.A,
        k: sc.fills.k,
        probability: sc.fills.probability,
        size: units(sc.fills.sizeMicro, 6),
      },
      pnl: meanStdJson(this.#pnl.result()),
      finalInventory: meanStdJson(this.#inventory.result()),
      fills: meanStdJson(this.#fills.result(), 6),
      openOrdersAtEnd: this.#openAtEnd,
      acrossPaths: this.#across.json(),
      perPath: this.#rows as readonly PerPathRow[],
    };
  }
}
