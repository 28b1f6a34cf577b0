import { microToString } from "../../book/micro.js";
import type { Logger } from "../../observability/logger.js";
import { SyntheticAggregate } from "./aggregate.js";
import { type PathResult, runPath } from "./run-path.js";
import { EDGE_MICRO, type Scenario } from "./scenario.js";

/** What runSynthetic needs besides the scenario. */
export interface SyntheticOptions {
  /** Overrides scenario.paths. */
  readonly paths?: number;
  /** Overrides scenario.seed. */
  readonly seed?: number;
  readonly logger?: Logger;
  /** Called after each path (progress). */
  readonly onPath?: (done: number, total: number) => void;
  /**
   * Called every `progressEvery` book frames (default 10,000) with the frames done over the whole
   * run, within a path too: a few long paths would otherwise show no progress until each ends.
   */
  readonly onProgress?: (frames: number) => void;
  readonly progressEvery?: number;
  /** Each path's whole result as it ends (the run itself keeps only its summary row). */
  readonly onPathResult?: (r: PathResult) => void;
}

/** The outcome of a synthetic run. */
export interface SyntheticResult {
  readonly summary: SyntheticSummary;
  /** Each path's pathDigest, in path order (the HTML report checks its re-run of a path by it). */
  readonly digests: readonly string[];
}

/** The synthetic run's JSON summary. */
export type SyntheticSummary = ReturnType<SyntheticAggregate["summary"]>;

/**
 * Runs the scenario's N Monte-Carlo paths one after another (each a fresh venue, engine and clock;
 * path i draws its mid from stream (seed, i, "mid") and its fills from (seed, i, "fills"), so a
 * path replays exactly and two strategies face the same prices), then summarises: mean and sample
 * standard deviation across paths of total PnL and final inventory, of every other report figure
 * (acrossPaths), plus each path's main figures. Each path's result is folded in as it ends and
 * dropped (SyntheticAggregate): `onPathResult` sees it first, for a caller that wants it whole.
 * @example const { summary } = await runSynthetic(parseScenario([json]), { paths: 200 });
 */
export async function runSynthetic(
  scenario: Scenario,
  opts: SyntheticOptions = {},
): Promise<SyntheticResult> {
  const sc: Scenario = { ...scenario, paths: opts.paths ?? scenario.paths, seed: opts.seed ?? scenario.seed };
  const agg = new SyntheticAggregate();
  const every = Math.max(1, opts.progressEvery ?? 10_000);
  let frames = 0;
  const onProgress = opts.onProgress;
  // A counter per frame is all it costs; without a listener runPath gets no callback at all.
  const onFrame =
    onProgress === undefined
      ? {}
      : {
          onFrame: () => {
            if (++frames % every === 0) onProgress(frames);
          },
        };
  for (let i = 0; i < sc.paths; i++) {
    const r = await runPath(sc, i, {
      ...(opts.logger === undefined ? {} : { logger: opts.logger }),
      ...onFrame,
    });
    opts.onPathResult?.(r);
    agg.add(r);
    opts.onPath?.(i + 1, sc.paths);
  }
  return { summary: agg.summary(sc), digests: agg.digests };
}

/**
 * What an unbounded run whose mid left what the book can show must be told (the steps the summary
 * counts in `process.clamped`), as one sentence; undefined when the mid never left. The stderr
 * warning and the HTML report both say it, so a reader of either sees that those steps' book, fills
 * and marks followed the edge price, not the process asked for.
 * @example clampNote(summary) // "the unbounded mid lay outside [0.000002, 0.999998] on 7 steps …"
 */
export function clampNote(summary: SyntheticSummary): string | undefined {
  const c = summary.process.clamped;
  if (c === undefined || c.steps === 0) return undefined;
  const edge = microToString(EDGE_MICRO);
  const far = microToString(1_000_000 - EDGE_MICRO);
  return `the unbounded mid lay outside [${edge}, ${far}] on ${c.steps} steps of ${c.paths} of ${summary.paths} paths; the book showed it at the edge (summary process.clamped)`;
}

/**
 * The stderr warning of an unbounded run whose mid left what the book can show (clampNote), or
 * undefined when it never did.
 * @example clampWarning(summary) // "mm backtest: warning: the unbounded mid lay outside …\n"
 */
export function clampWarning(summary: SyntheticSummary): string | undefined {
  const note = clampNote(summary);
  return note === undefined ? undefined : `mm backtest: warning: ${note}\n`;
}
