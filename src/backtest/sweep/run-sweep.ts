import { extname } from "node:path";
import type { GridPoint } from "./grid.js";
import type { Metric } from "./metric.js";
import type { PointResult, SweepTask } from "./point.js";
import { runPool } from "./pool.js";
import type { ProgressState } from "./progress.js";
import { type PointOutcome, type RankedPoint, rankPoints } from "./rank.js";

/** A sweep ready to run: the grid points, one task each (same order), and the ranking. */
export interface SweepPlan {
  readonly points: readonly GridPoint[];
  readonly tasks: readonly SweepTask[];
  readonly metric: Metric;
  /** Worker threads. */
  readonly workers: number;
  /** Events one point processes, when known before running (synthetic scenarios). */
  readonly eventsPerPoint: number | undefined;
  /** Longest one point may run, ms; a point still running then fails as `point_timeout`. Default: none. */
  readonly pointTimeoutMs?: number | undefined;
  /** The worker module; default point-worker (tests substitute their own). */
  readonly script?: URL;
}

/** What a sweep produced. */
export interface SweepResult {
  /** Every point in grid order. */
  readonly outcomes: readonly PointOutcome[];
  readonly ranked: readonly RankedPoint[];
  /** Market events processed over all points. */
  readonly events: number;
}

/** Progress hooks: `onProgress` on any change, `onPoint` when a point settles. */
export interface SweepHooks {
  readonly onProgress?: (state: ProgressState) => void;
  readonly onPoint?: (state: ProgressState, outcome: PointOutcome) => void;
  /** Milliseconds since the sweep started (injected so the progress figures are testable). */
  readonly elapsedMs?: () => number;
  /**
   * A data file found cut short (full path): called once per file for the whole sweep, when the
   * first point that read it settles — every point reads the same data, so one warning is enough.
   */
  readonly onTruncated?: (file: string) => void;
}

/**
 * Runs every grid point as an independent backtest on a pool of worker threads and ranks the
 * results. A failed point is kept with its error; the rest go on. The metric was checked before
 * (parseMetric): a point whose summary holds no number there ranks last. A data file cut short is
 * reported once through `hooks.onTruncated`, however many points read it.
 * @example const { ranked } = await runSweep({ points, tasks, metric, workers: 4, eventsPerPoint: undefined });
 */
export async function runSweep(plan: SweepPlan, hooks: SweepHooks = {}): Promise<SweepResult> {
  const started = performance.now();
  const elapsed = hooks.elapsedMs ?? (() => performance.now() - started);
  const total = plan.points.length;
  const events = plan.points.map(() => 0);
  const failedIdx = new Set<number>();
  let perPoint = plan.eventsPerPoint;
  let done = 0;
  const truncated = new Set<string>();
  const state = (): ProgressState => {
    const sum = events.reduce((a, b) => a + b, 0);
    let eventsTotal: number | undefined;
    if (perPoint !== undefined) {
      const lost = [...failedIdx].reduce((a, i) => a + (events[i] ?? 0), 0);
      eventsTotal = perPoint * (total - failedIdx.size) + lost;
    }
    return { total, done, failed: failedIdx.size, events: sum, eventsTotal, elapsedMs: elapsed() };
  };
  const outcomes: (PointOutcome | undefined)[] = plan.points.map(() => undefined);
  await runPool<SweepTask, PointResult>({
    script: plan.script ?? defaultScript(),
    workers: plan.workers,
    tasks: plan.tasks,
    ...(plan.pointTimeoutMs === undefined ? {} : { taskTimeoutMs: plan.pointTimeoutMs }),
    onProgress: (i, n) => {
      events[i] = n;
      hooks.onProgress?.(state());
    },
    onSettled: (i, o) => {
      const point = plan.points[i] as GridPoint;
      done++;
      let outcome: PointOutcome;
      if (o.ok) {
        events[i] = o.result.events;
        perPoint ??= o.result.events;
        for (const file of o.result.truncatedFiles) {
          if (truncated.has(file)) continue;
          truncated.add(file);
          hooks.onTruncated?.(file);
        }
        outcome = { ...point, status: "ok", summary: o.result.summary };
      } else {
        failedIdx.add(i);
        outcome = { ...point, status: "failed", error: o.error };
      }
      outcomes[i] = outcome;
      hooks.onPoint?.(state(), outcome);
    },
  });
  const all = outcomes as PointOutcome[];
  return { outcomes: all, ranked: rankPoints(all, plan.metric), events: state().events };
}

// point-worker.ts next to this module when run from source (tsx, vitest), .js once compiled.
function defaultScript(): URL {
  return new URL(`./point-worker${extname(new URL(import.meta.url).pathname)}`, import.meta.url);
}
