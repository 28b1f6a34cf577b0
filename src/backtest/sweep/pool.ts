import { Worker } from "node:worker_threads";
import { MmError } from "../../core/errors.js";
import type { PointError } from "./rank.js";
import type { TaskMessage, WorkerMessage } from "./worker-protocol.js";

/** A task's outcome: its result, or why it has none. */
export type TaskOutcome<R> =
  | { readonly ok: true; readonly result: R }
  | { readonly ok: false; readonly error: PointError };

/** What runPool needs. */
export interface PoolOptions<T, R> {
  /** The worker module: calls serveTasks once loaded (a .ts module loads through tsx). */
  readonly script: URL;
  /** Threads at most (fewer when there are fewer tasks). */
  readonly workers: number;
  readonly tasks: readonly T[];
  /** Cumulative events of task `index` so far. */
  readonly onProgress?: (index: number, events: number) => void;
  readonly onSettled?: (index: number, outcome: TaskOutcome<R>) => void;
  /** Stops the pool: workers are terminated, unfinished tasks stay undefined. */
  readonly signal?: AbortSignal;
  /**
   * Longest a task may run, ms (undefined: no limit). A task still running then settles as
   * `point_timeout` and its worker is terminated and replaced, as for a crash: a task that never
   * finishes (a loop, a promise never settled) would otherwise hold the pool open forever.
   */
  readonly taskTimeoutMs?: number;
}

// Workers do not inherit the parent's module hooks, so a TypeScript worker module registers tsx's
// loader itself before loading (the same under `tsx`, `node --import tsx` and vitest). A failure
// here (or at load) is thrown as an uncaught error: the pool sees it as the worker's crash.
const BOOTSTRAP = `
const { workerData } = require("node:worker_threads");
(async () => {
  if (workerData.tsx !== undefined) (await import(workerData.tsx)).register();
  await import(workerData.script);
})().catch((err) => setImmediate(() => { throw err; }));
`;

/**
 * Runs `tasks` on a pool of worker threads, each worker taking the next task when it finishes
 * one. A task that throws settles as failed; a worker that crashes (uncaught error, exit, out of
 * memory) fails the task it held and is replaced while tasks remain, so one bad task never stops
 * the others. A task running longer than `taskTimeoutMs` fails the same way (`point_timeout`).
 * Resolves with the outcomes in task order once every task settled and every worker
 * ended (or, after `signal` aborts, with the ones settled so far).
 * @example const outcomes = await runPool({ script: new URL("./point-worker.ts", import.meta.url), workers: 4, tasks });
 */
export async function runPool<T, R>(opts: PoolOptions<T, R>): Promise<(TaskOutcome<R> | undefined)[]> {
  const outcomes: (TaskOutcome<R> | undefined)[] = opts.tasks.map(() => undefined);
  const workerData = { script: opts.script.href, tsx: tsxLoader(opts.script) };
  let next = 0;
  let settled = 0;
  let live = 0;
  const all = new Set<Worker>();
  return new Promise((resolve) => {
    const finishIfDone = () => {
      if (live === 0 && (settled === opts.tasks.length || opts.signal?.aborted === true)) resolve(outcomes);
    };
    const settle = (index: number, outcome: TaskOutcome<R>) => {
      if (outcomes[index] !== undefined) return;
      outcomes[index] = outcome;
      settled++;
      opts.onSettled?.(index, outcome);
    };
    const start = () => {
      const w = new Worker(BOOTSTRAP, { eval: true, workerData });
      all.add(w);
      live++;
      let current: number | undefined;
      let retiring = false;
      let timer: NodeJS.Timeout | undefined;
      const disarm = () => {
        clearTimeout(timer);
        timer = undefined;
      };
      // Only termination stops a task: a worker runs it on its own thread, out of reach otherwise.
      const arm = (id: number, ms: number) => {
        timer = setTimeout(() => {
          if (current !== id) return;
          settle(id, {
            ok: false,
            error: {
              code: "point_timeout",
              message: `no result within ${ms / 1000} s: its worker was terminated`,
            },
          });
          current = undefined;
          void w.terminate();
        }, ms);
      };
      const assign = () => {
        disarm();
        if (next >= opts.tasks.length || opts.signal?.aborted === true) {
          current = undefined;
          retiring = true;
          void w.terminate();
          return;
        }
        current = next++;
        w.postMessage({ type: "task", id: current, task: opts.tasks[current] as T } satisfies TaskMessage<T>);
        if (opts.taskTimeoutMs !== undefined) arm(current, opts.taskTimeoutMs);
      };
      const crash = (message: string) => {
        disarm();
        if (current !== undefined && opts.signal?.aborted !== true)
          settle(current, { ok: false, error: { code: "worker_crashed", message } });
        current = undefined;
      };
      w.on("message", (m: WorkerMessage<R>) => {
        if (m.id !== current) return;
        if (m.type === "progress") opts.onProgress?.(m.id, m.events);
        else {
          settle(m.id, m.type === "done" ? { ok: true, result: m.result } : { ok: false, error: m.error });
          assign();
        }
      });
      w.on("messageerror", (err) => {
        crash(`a message from the worker could not be read: ${err.message}`);
        void w.terminate();
      });
      w.on("error", (err) => crash(`worker crashed: ${err.message}`));
      w.on("exit", (code) => {
        all.delete(w);
        live--;
        if (!retiring || current !== undefined) crash(`worker exited with code ${code}`);
        if (next < opts.tasks.length && opts.signal?.aborted !== true) start();
        finishIfDone();
      });
      assign();
    };
    opts.signal?.addEventListener("abort", () => {
      for (const w of all) void w.terminate();
      finishIfDone();
    });
    const n = Math.max(1, Math.min(opts.workers, opts.tasks.length));
    if (opts.tasks.length === 0) resolve(outcomes);
    else for (let i = 0; i < n; i++) start();
  });
}

/** The URL of tsx's loader API when the worker module is TypeScript, else undefined. */
function tsxLoader(script: URL): string | undefined {
  if (!script.pathname.endsWith(".ts")) return undefined;
  try {
    return import.meta.resolve("tsx/esm/api");
  } catch (err) {
    throw new MmError("sweep_needs_tsx", "running TypeScript in sweep workers needs tsx (a dev dependency)", {
      cause: (err as Error).message,
    });
  }
}
