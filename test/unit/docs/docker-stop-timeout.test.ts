import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * `docker stop` sends SIGTERM and, after its own default of 10 s, SIGKILL: exactly mm's default
 * `shutdown.timeoutMs`, so a stop that runs to its bound was killed as it closed (before its exit
 * line and the journal's stop row), and one with a raised bound before its last cancels. Every
 * `docker run` README shows gives more time (--stop-timeout), as the compose file does.
 */
const root = join(import.meta.dirname, "../../..");
const read = (p: string) => readFileSync(join(root, p), "utf8");
const shutdownMs = (JSON.parse(read("config/default.json")) as { shutdown: { timeoutMs: number } }).shutdown
  .timeoutMs;

describe("Docker: the stop timeout outlasts shutdown.timeoutMs", () => {
  it("every docker run in README sets --stop-timeout above it", () => {
    const runs = read("README.md").match(/`docker run [^`]*`/g) ?? [];
    expect(runs.length).toBeGreaterThan(0);
    for (const run of runs) {
      const s = /--stop-timeout (\d+)/.exec(run)?.[1];
      expect(s, run).toBeDefined();
      expect(Number(s) * 1000, run).toBeGreaterThan(shutdownMs);
    }
  });

  it("the compose file's stop_grace_period is above it", () => {
    const grace = /stop_grace_period:\s*(\d+)s/.exec(read("config/compose/docker-compose.yml"))?.[1];
    expect(Number(grace) * 1000).toBeGreaterThan(shutdownMs);
  });
});
