import { parentPort } from "node:worker_threads";
import { MmError } from "../../core/errors.js";
import type { PointError } from "./rank.js";

/** Pool → worker: run one task. */
export interface TaskMessage<T> {
  readonly type: "task";
  readonly id: number;
  readonly task: T;
}

/**
 * Worker → pool: the worker is loaded and serving (once, first), or a task's progress (cumulative
 * events), result or error.
 */
export type WorkerMessage<R> =
  | { readonly type: "ready" }
  | { readonly type: "progress"; readonly id: number; readonly events: number }
  | { readonly type: "done"; readonly id: number; readonly result: R }
  | { readonly type: "failed"; readonly id: number; readonly error: PointError };

/** Runs one task in a worker; `progress(events)` reports the events processed so far. */
export type TaskHandler<T, R> = (task: T, progress: (events: number) => void) => Promise<R>;

/**
 * Makes the current worker thread serve pool tasks one at a time with `handler`: the module the
 * pool starts calls this once at load, and it tells the pool it is ready (the pool's task limit
 * runs from then, not over the thread's start-up and module loading). A task that throws is answered with its error (code and
 * message; an MmError keeps its stable code) and the worker stays up for the next one.
 * @example serveTasks(async (task: SweepTask, progress) => runSweepPoint(task, progress));
 */
export function serveTasks<T, R>(handler: TaskHandler<T, R>): void {
  const port = parentPort;
  if (port === null) throw new MmError("not_a_worker", "serveTasks must run in a worker thread");
  let chain = Promise.resolve();
  port.on("message", (msg: TaskMessage<T>) => {
    if (msg?.type !== "task") return;
    const send = (m: WorkerMessage<R>) => port.postMessage(m);
    chain = chain.then(async () => {
      try {
        const result = await handler(msg.task, (events) => send({ type: "progress", id: msg.id, events }));
        send({ type: "done", id: msg.id, result });
      } catch (err) {
        send({ type: "failed", id: msg.id, error: toPointError(err) });
      }
    });
  });
  port.postMessage({ type: "ready" } satisfies WorkerMessage<R>);
}

/** An error as a grid point's failure: the MmError's code, else `point_failed`, and a message. */
export function toPointError(err: unknown): PointError {
  if (err instanceof MmError) return { code: err.code, message: err.message };
  if (err instanceof Error) return { code: "point_failed", message: `${err.name}: ${err.message}` };
  return { code: "point_failed", message: String(err) };
}
