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
   * finishes (a loop, a promise never settled) would otherwise hold the pool open forever. It runs
   * from the task reaching a ready worker: a thread's start-up (tsx, module loading: seconds on a
   * busy machine) is not the task's time.
   */
  readonly taskTimeoutMs?: number;
  /**
   * With taskTimeoutMs, longest a worker may take to become ready, ms (default
   * WORKER_START_LIMIT_MS): one stuck loading fails the task it was given as
   * `worker_start_timeout` and is replaced, so the pool still cannot hang.
   */
  readonly startTimeoutMs?: number;
}

/**
 * Default limit on a worker's start-up when tasks have a limit: far above any real load (about a
 * second, several on a loaded machine), only there so a module stuck at load cannot hold the pool.
 */
export const WORKER_START_LIMIT_MS = 300_000;

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
      let ready = false;
      let timer: NodeJS.Timeout | undefined;
      const disarm = () => {
        clearTimeout(timer);
        timer = undefined;
      };
      // Only termination stops a task: a worker runs it on its own thread, out of reach otherwise.
      const arm = (ms: number, error: PointError) => {
        disarm();
        timer = setTimeout(() => {
          if (current !== undefined) settle(current, { ok: false, error });
          current = undefined;
          void w.terminate();
        }, ms);
      };
      // The task's limit starts once the worker serves: its message waits in the port till then.
      const armTask = () => {
        if (opts.taskTimeoutMs === undefined || current === undefined) return;
        const s = opts.taskTimeoutMs / 1000;
        arm(opts.taskTimeoutMs, {
          code: "point_timeout",
          message: `no result within ${s} s: its worker was terminated`,
        });
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
        if (ready) armTask();
      };
      const crash = (message: string) => {
        disarm();
        if (current !== undefined && opts.signal?.aborted !== true)
          settle(current, { ok: false, error: { code: "worker_crashed", message } });
        current = undefined;
      };
      w.on("message", (m: WorkerMessage<R>) => {
        if (m.type === "ready") {
          ready = true;
          disarm();
          armTask();
          return;
        }
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
      if (opts.taskTimeoutMs !== undefined && current !== undefined) {
        const ms = opts.startTimeoutMs ?? WORKER_START_LIMIT_MS;
        arm(ms, {
          code: "worker_start_timeout",
          message: `worker not ready within ${ms / 1000} s: it was terminated`,
        });
      }
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
