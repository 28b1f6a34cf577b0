// A sweep worker module for tests: the real point runner, except that gamma 5 with k 100 never
// finishes (a promise never settled), as a point stuck in a loop would.
import { runSweepPoint, type SweepTask } from "../../../../src/backtest/sweep/point.js";
import { serveTasks } from "../../../../src/backtest/sweep/worker-protocol.js";

serveTasks(async (task: SweepTask, progress) => {
  const { gamma, k } = (task.strategy as { params: { gamma: number; k: number } }).params;
  if (gamma === 5 && k === 100) return new Promise<never>(() => {});
  return runSweepPoint(task, progress);
});
