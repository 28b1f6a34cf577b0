import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

/*
 * Each synthetic path built its engine's silent logger with `pino()`, which opened a stdout stream
 * and registered it for a flush at exit (a WeakRef and a FinalizationRegistry cell). A run never
 * yields to the event loop, so the registry never cleaned them up: 150-162 B of objects per path
 * stayed until the run ended. Measured in a child on its main thread (where pino registers), from
 * two heap snapshots, with the JIT off: its optimised code and their metadata came and went with
 * the background compiler's timing, 70–90 B a path on a quiet machine and past 160 under load,
 * which left too little room below the leak (see path-heap-child.ts).
 */

const CHILD = new URL("./support/path-heap-child.ts", import.meta.url).pathname;

describe("a synthetic path", () => {
  it("leaves nothing behind in the heap while a run goes on (paths 500 to 1,500)", async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--jitless", "--no-flush-bytecode", "--import", "tsx", CHILD, "500", "1500"],
      { timeout: 150_000 },
    );
    const { perPath, grown } = JSON.parse(stdout) as { perPath: number; grown: string[] };
    // No kind of object grows with the paths (the logger left a WeakRef, WeakCell and
    // PropertyArray each)...
    expect(grown).toEqual([]);
    // ...and the heap does not grow either: 0.8-1.0 B a path measured (the last of the warm-up),
    // quiet or at a load of 11 on 2 cores; the per-path logger gave 150-162 B.
    expect(perPath).toBeLessThan(20);
  }, 180_000);
});
