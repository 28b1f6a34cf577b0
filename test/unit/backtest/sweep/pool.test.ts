import { describe, expect, it } from "vitest";
import { runPool, type TaskOutcome } from "../../../../src/backtest/sweep/pool.js";
import type { FixtureTask } from "./fixtures/pool-worker.js";

/* Real worker threads loading a TypeScript module through tsx, as the sweep's do. */

const SCRIPT = new URL("./fixtures/pool-worker.ts", import.meta.url);
type Result = { square: number; thread: number };

describe("runPool", () => {
  it("runs every task on at most N threads and returns the results in task order", async () => {
    const tasks: FixtureTask[] = [1, 2, 3, 4, 5].map((n) => ({ n }));
    const progress: [number, number][] = [];
    const settled: number[] = [];
    const out = await runPool<FixtureTask, Result>({
      script: SCRIPT,
      workers: 2,
      tasks,
      onProgress: (i, events) => progress.push([i, events]),
      onSettled: (i) => settled.push(i),
    });
    expect(out.map((o) => (o?.ok === true ? o.result.square : undefined))).toEqual([1, 4, 9, 16, 25]);
    const threads = new Set(out.map((o) => (o?.ok === true ? o.result.thread : 0)));
    expect(threads.size).toBeLessThanOrEqual(2);
    expect(threads.has(0)).toBe(false);
    expect([...settled].sort()).toEqual([0, 1, 2, 3, 4]);
    for (const [i, n] of tasks.entries()) {
      expect(progress.filter(([j]) => j === i).map(([, e]) => e)).toEqual([n.n, n.n * 2]);
    }
  }, 30_000);

  it("settles throwing tasks and crashed workers as failures and finishes the rest", async () => {
    const tasks: FixtureTask[] = [
      { n: 1 },
      { n: 2, action: "throw" },
      { n: 3, action: "mmerror" },
      { n: 4, action: "exit" },
      { n: 5, action: "uncaught" },
      { n: 6 },
      { n: 7 },
    ];
    const out = await runPool<FixtureTask, Result>({ script: SCRIPT, workers: 2, tasks });
    const brief = (o: TaskOutcome<Result> | undefined) => (o?.ok === true ? o.result.square : o?.error);
    expect(out.map(brief)).toEqual([
      1,
      { code: "point_failed", message: "TypeError: bad 2" },
      { code: "data_empty", message: "the data has no record" },
      { code: "worker_crashed", message: "worker exited with code 7" },
      { code: "worker_crashed", message: "worker crashed: async boom" },
      36,
      49,
    ]);
  }, 30_000);

  it("fails each task a worker that cannot load was given, without respawning forever", async () => {
    const out = await runPool<FixtureTask, Result>({
      script: new URL("./fixtures/missing-worker.ts", import.meta.url),
      workers: 1,
      tasks: [{ n: 1 }, { n: 2 }],
    });
    expect(out.map((o) => (o?.ok === false ? o.error.code : "ok"))).toEqual([
      "worker_crashed",
      "worker_crashed",
    ]);
    expect(out[0]?.ok === false && out[0].error.message).toMatch(/^worker crashed: .*missing-worker/);
  }, 30_000);

  it("stops on abort: running workers are terminated, unfinished tasks stay undefined", async () => {
    const abort = new AbortController();
    const tasks: FixtureTask[] = [{ n: 1 }, { n: 2, action: "hang" }, { n: 3 }, { n: 4 }];
    const out = await runPool<FixtureTask, Result>({
      script: SCRIPT,
      workers: 2,
      tasks,
      signal: abort.signal,
      onSettled: () => abort.abort(),
    });
    expect(out[0]).toEqual({ ok: true, result: expect.objectContaining({ square: 1 }) });
    expect(out[1]).toBeUndefined();
    expect(out.filter((o) => o !== undefined)).toHaveLength(1);
  }, 30_000);

  it("fails a task that outlives taskTimeoutMs (point_timeout), replaces its worker and runs the rest", async () => {
    const tasks: FixtureTask[] = [{ n: 1 }, { n: 2, action: "hang" }, { n: 3 }, { n: 4 }];
    // One worker: the tasks after the hung one can only run on its replacement.
    const out = await runPool<FixtureTask, Result>({
      script: SCRIPT,
      workers: 1,
      tasks,
      taskTimeoutMs: 1_500,
    });
    expect(out.map((o) => (o?.ok === true ? o.result.square : o?.error))).toEqual([
      1,
      { code: "point_timeout", message: "no result within 1.5 s: its worker was terminated" },
      9,
      16,
    ]);
    const threads = out.map((o) => (o?.ok === true ? o.result.thread : undefined));
    expect(threads[2]).not.toBe(threads[0]);
  }, 30_000);

  it("runs taskTimeoutMs from the worker being ready, not from its start: a slow start-up times nothing out", async () => {
    // The fixture takes 2.5 s to start (a cold load on a busy machine) and each task is instant:
    // only the tasks' own time may count against the 1 s limit.
    const out = await runPool<FixtureTask, Result>({
      script: new URL("./fixtures/slow-start-worker.ts", import.meta.url),
      workers: 2,
      tasks: [{ n: 1 }, { n: 2 }, { n: 3 }],
      taskTimeoutMs: 1_000,
    });
    expect(out.map((o) => (o?.ok === true ? o.result.square : o?.error))).toEqual([1, 4, 9]);
  }, 30_000);

  it("fails the task of a worker never ready within startTimeoutMs (worker_start_timeout), one task per worker", async () => {
    const out = await runPool<FixtureTask, Result>({
      script: new URL("./fixtures/never-ready-worker.ts", import.meta.url),
      workers: 1,
      tasks: [{ n: 1 }, { n: 2 }],
      taskTimeoutMs: 500,
      startTimeoutMs: 1_500,
    });
    const error = {
      code: "worker_start_timeout",
      message: "worker not ready within 1.5 s: it was terminated",
    };
    expect(out).toEqual([
      { ok: false, error },
      { ok: false, error },
    ]);
  }, 30_000);

  it("resolves at once with no tasks", async () => {
    expect(await runPool({ script: SCRIPT, workers: 4, tasks: [] })).toEqual([]);
  });
});
