import { parseReplayConfig } from "../replay/replay-config.js";
import { runBacktest } from "../replay/run-backtest.js";
import { runSynthetic } from "../synthetic/run-synthetic.js";
import { parseScenario, type Scenario } from "../synthetic/scenario.js";

/**
 * One grid point, as sent to a worker: the raw config (or scenario) layers as read from disk plus
 * the point's strategy entry as the last layer, so the worker validates and runs exactly what
 * `mm backtest` would with that strategy written into the config. Plain JSON: it crosses threads.
 */
export type SweepTask =
  | {
      readonly kind: "replay";
      readonly configLayers: readonly unknown[];
      readonly data: string;
      readonly seed?: number;
      readonly strategy: unknown;
    }
  | {
      readonly kind: "synthetic";
      readonly scenarioLayers: readonly unknown[];
      readonly paths?: number;
      readonly seed?: number;
      readonly strategy: unknown;
    };

/** A grid point's outcome: the run's JSON summary and the market events it processed. */
export interface PointResult {
  readonly summary: unknown;
  readonly events: number;
  /**
   * Full paths of the data files found cut short (replayed up to their last complete line), in
   * the order they were met; empty for synthetic points. The summary only has their basenames.
   */
  readonly truncatedFiles: readonly string[];
}

/**
 * Frames between progress reports of a point, replay or synthetic (a synthetic path's frames
 * count as they are fed, so one long path reports as it goes, not only when it ends).
 */
const PROGRESS_FRAMES = 2_000;

/**
 * Runs one grid point with the unchanged backtest code (runBacktest or runSynthetic), reporting
 * the events processed so far through `progress`. The summary is the one `mm backtest` writes for
 * the same config, data and seed.
 * @example const { summary } = await runSweepPoint(task, (events) => {});
 */
export async function runSweepPoint(
  task: SweepTask,
  progress: (events: number) => void,
): Promise<PointResult> {
  const layer = { strategy: task.strategy };
  if (task.kind === "replay") {
    const config = parseReplayConfig([...task.configLayers, layer]);
    const truncatedFiles: string[] = [];
    const r = await runBacktest({
      config,
      data: task.data,
      ...(task.seed === undefined ? {} : { seed: task.seed }),
      onProgress: (frames) => progress(frames),
      progressEvery: PROGRESS_FRAMES,
      onTruncated: (file) => truncatedFiles.push(file),
    });
    return { summary: r.summary, events: r.frames, truncatedFiles };
  }
  const scenario = parseScenario([...task.scenarioLayers, layer]);
  const perPath = framesPerPath(scenario);
  const r = await runSynthetic(scenario, {
    ...(task.paths === undefined ? {} : { paths: task.paths }),
    ...(task.seed === undefined ? {} : { seed: task.seed }),
    onProgress: (frames) => progress(frames),
    progressEvery: PROGRESS_FRAMES,
    // Each path's end too, so the count is exact between paths whatever the frames per path.
    onPath: (done) => progress(done * perPath),
  });
  return { summary: r.summary, events: r.summary.paths * perPath, truncatedFiles: [] };
}

/** Book frames one synthetic path feeds the engine: the snapshot, then one update per step. */
export function framesPerPath(scenario: Scenario): number {
  return scenario.horizonMs / scenario.process.dtMs + 1;
}
