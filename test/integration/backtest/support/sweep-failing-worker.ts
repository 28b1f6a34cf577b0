// A sweep worker module for tests: the real point runner, except that gamma 5 fails — with k 50
// by throwing, with k 100 by killing the worker thread — so a sweep sees both kinds of failure.
import { runSweepPoint, type SweepTask } from "../../../../src/backtest/sweep/point.js";
import { serveTasks } from "../../../../src/backtest/sweep/worker-protocol.js";

serveTasks(async (task: SweepTask, progress) => {
  const { gamma, k } = (task.strategy as { params: { gamma: number; k: number } }).params;
  if (gamma === 5 && k === 50) throw new RangeError("gamma 5 with k 50 refused by the test worker");
  if (gamma === 5) process.exit(7);
  return runSweepPoint(task, progress);
});
