import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect } from "vitest";
import { packageRoot } from "../../src/config/paths.js";
import type { MockExchange } from "../../src/mock/mock-exchange.js";

/** A running `mm` child process with its output collected line by line. */
export interface MmChild {
  readonly child: ChildProcess;
  /** stdout lines parsed as JSON log records (other lines are skipped). */
  readonly records: Record<string, unknown>[];
  stderr(): string;
  /** Resolves with the exit code (or the signal name) once the process has ended. */
  readonly exited: Promise<number | string>;
  /** Waits for a log record matching `pred`; rejects after `ms` or when the process ends first. */
  waitFor(
    pred: (r: Record<string, unknown>) => boolean,
    ms: number,
    what: string,
  ): Promise<Record<string, unknown>>;
}

/**
 * One private data folder per test file: `mm run`'s default journal lands there, not in ~/.local.
 * Keyed by the file: a vitest worker runs several files in one process (isolate: false), one after
 * the other, so a new file's folder replaces the earlier files' (their tests are over).
 */
const dataHomes = new Map<string, string>();
const removeDataHomes = () => {
  for (const d of dataHomes.values()) rmSync(d, { recursive: true, force: true });
  dataHomes.clear();
};
// The last file's, when the worker ends (if it ends by exit: a killed worker leaves one folder).
process.once("exit", removeDataHomes);

/**
 * The environment of a child: nothing inherited but PATH and HOME, plus `env`; XDG_DATA_HOME is a
 * private temp folder (kept for the test file, so a restarted child finds its journal again).
 */
export function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const file = expect.getState().testPath ?? "";
  let dataHome = dataHomes.get(file);
  if (dataHome === undefined) {
    removeDataHomes();
    dataHome = mkdtempSync(join(tmpdir(), "mm-e2e-data-"));
    dataHomes.set(file, dataHome);
  }
  return {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    XDG_DATA_HOME: dataHome,
    ...env,
  };
}

/**
 * Spawns `command args` in the package root (default: `node --import tsx src/cli/main.ts …`, as
 * `npm run mm` does) with `env` as its whole environment (see childEnv).
 */
export function spawnMm(
  args: readonly string[],
  env: Record<string, string>,
  command: readonly string[] = [process.execPath, "--import", "tsx", "src/cli/main.ts"],
): MmChild {
  const [bin = process.execPath, ...pre] = command;
  const child = spawn(bin, [...pre, ...args], {
    cwd: packageRoot(),
    env: childEnv(env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  const records: Record<string, unknown>[] = [];
  const waiters = new Set<() => void>();
  let err = "";
  let buf = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    buf += chunk;
    for (let nl = buf.indexOf("\n"); nl >= 0; nl = buf.indexOf("\n")) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      try {
        records.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        // not a log record
      }
    }
    for (const w of waiters) w();
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    err += chunk;
  });
  const exited = new Promise<number | string>((resolve) => {
    child.once("exit", (code, signal) => {
      resolve(code ?? signal ?? "unknown");
      for (const w of waiters) w();
    });
  });
  let ended = false;
  void exited.then(() => {
    ended = true;
  });
  return {
    child,
    records,
    stderr: () => err,
    exited,
    waitFor(pred, ms, what) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = records.find(pred);
          if (found !== undefined) return done(() => resolve(found));
          if (ended) return done(() => reject(new Error(`mm exited before ${what}; stderr: ${err}`)));
        };
        const timer = setTimeout(
          () => done(() => reject(new Error(`timed out waiting for ${what}; stderr: ${err}`))),
          ms,
        );
        const done = (fn: () => void) => {
          clearTimeout(timer);
          waiters.delete(check);
          fn();
        };
        waiters.add(check);
        check();
      });
    },
  };
}

/** Kills a child that is still running (test clean-up) and waits for it. */
export async function reap(m: MmChild | undefined): Promise<void> {
  if (m === undefined || m.child.exitCode !== null || m.child.signalCode !== null) return;
  m.child.kill("SIGKILL");
  await m.exited;
}

/**
 * The child and the mock of the test that runs, ended after each test (the child killed if still up,
 * then the mock closed): registers the afterEach, so call it at a test file's top level.
 * @example const slots = childSlots(); … slots.mock = await startMock(); slots.mm = spawnMm(["run"], env);
 */
export function childSlots(): { mock?: MockExchange | undefined; mm?: MmChild | undefined } {
  const slots: { mock?: MockExchange | undefined; mm?: MmChild | undefined } = {};
  afterEach(async () => {
    await reap(slots.mm);
    await slots.mock?.close();
    slots.mm = undefined;
    slots.mock = undefined;
  });
  return slots;
}

/** A log record whose message is `msg`. */
export const msg = (text: string) => (r: Record<string, unknown>) => r.msg === text;

/**
 * SIGTERM to a child whose start has not got far (nothing placed): it must end at once with exit 0
 * and say so, not wait out its shutdown budget ("the stop overran": exit 1).
 * @example await expectPromptStop(mm, 3_000);
 */
export async function expectPromptStop(mm: MmChild, withinMs: number): Promise<void> {
  const t0 = performance.now();
  mm.child.kill("SIGTERM");
  const code = await mm.exited;
  const tookMs = performance.now() - t0;
  expect(mm.stderr()).not.toContain("the stop overran");
  expect(code).toBe(0);
  expect(mm.stderr()).toContain("mm run: stopped (SIGTERM); exit 0");
  expect(tookMs).toBeLessThan(withinMs);
}
