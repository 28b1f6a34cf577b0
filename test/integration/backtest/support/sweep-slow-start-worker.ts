// A sweep worker module for tests: the real point worker, loaded only after a start-up as slow as
// a cold tsx load on a busy machine (3 s), longer than the test's --point-timeout.
import { setTimeout as sleep } from "node:timers/promises";

await sleep(3_000);
await import("../../../../src/backtest/sweep/point-worker.js");
