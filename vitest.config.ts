import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Integration tests run real servers on 127.0.0.1; a slow CI box needs headroom.
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: "forks",
    // Vitest's default for `run` is one worker fewer than the cores, so on the 2-core reference
    // machine the suite ran its files one after another (528 s in CI); a worker per core runs it
    // in ~325 s. The timing-sensitive tests already allow for a loaded machine.
    maxWorkers: availableParallelism(),
    // One process per worker for all its files, not a fresh one per file: the suite's 347 files
    // spent ~40% of `npm test` starting processes (400 s → 250 s on 2 cores). Test files keep no
    // global state (no module mocks, fake timers or env writes; signal listeners are removed), and
    // runs with the files shuffled (--sequence.shuffle.files) pass.
    isolate: false,
  },
});
