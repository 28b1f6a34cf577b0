import { describe, expect, it } from "vitest";
import { startDaemon } from "../../../src/app/daemon.js";
import { DAEMON_EXIT } from "../../../src/app/outcome.js";
import { superviseDaemon } from "../../../src/app/supervise.js";
import type { MmConfig } from "../../../src/config/types.js";
import { serverSlots } from "./rest-front.js";
import { daemonConfig, market, memoryLogger, mockWithTwoResting, openOnMock, SCENARIO } from "./support.js";

/*
 * A key without orders:write (mm mock's read-only key) and an earlier run's two quotes resting: the
 * first cancel is refused 403 api_key_scope_missing, so every later cancel with this key is refused
 * too (the spec's Authentication step 5: scopes are the key's). The stop's sweep still retried its
 * cancel rounds (a cancel-all, then each order singly, the read, a pause…) until its budget ran out:
 * with the default shutdown.timeoutMs (10 s) the run took ~8 s more to exit 3 than it needed.
 */

const slots = serverSlots();
const ARG = market("arg-vs-fra-final-arg-win");

describe("mm run with a key without orders:write: the stop gives up on refused cancels", () => {
  it("exits 3 promptly, naming the orders that still rest", async () => {
    const mock = await mockWithTwoResting(slots, ARG);
    const readOnly = SCENARIO.apiKeys[1];
    expect(readOnly?.scopes).toContain("orders:read");
    expect(readOnly?.scopes).not.toContain("orders:write");
    // The default budget, spelled out: the engine's share of it is 8 s.
    const config = daemonConfig(mock, [ARG.slug], {
      MM_API_KEY: readOnly?.key ?? "",
      MM_SHUTDOWN_TIMEOUT_MS: "10000",
    });
    const { code, stderr, stopMs } = await timedRun(config);
    expect(code).toBe(DAEMON_EXIT.fatal);
    expect(openOnMock(mock)).toHaveLength(2);
    expect(stderr).toContain("the API key lacks orders:write");
    expect(stderr).toContain(
      "2 order(s) of the wallet still rest on the exchange (its open-orders list, read after the cancels)",
    );
    // Was: ~8 s, the engine's whole share of the budget, spent on refused cancel rounds. The
    // cancels, one read and the sockets' close take a few tens of ms; 3 s leaves room for load.
    expect(stopMs).toBeLessThan(3_000);
  }, 30_000);
});

/**
 * `mm run` under supervise as the CLI runs it (the stop bounded by shutdown.timeoutMs), no stop
 * requested: the exit code, stderr, and how long the stop took, from its start (onStopping) to the
 * exit code.
 */
async function timedRun(config: MmConfig): Promise<{ code: number; stderr: string; stopMs: number }> {
  const { logger } = memoryLogger();
  const lines: string[] = [];
  let stoppingAt: number | undefined;
  const code = await superviseDaemon(
    "run",
    (onStopping, stopRequested) =>
      startDaemon(config, {
        logger,
        onStopping: (reason) => {
          stoppingAt ??= performance.now();
          onStopping(reason);
        },
        stopRequested,
      }),
    config.shutdown.timeoutMs,
    (text) => lines.push(text),
    { requests: () => () => undefined },
  );
  expect(stoppingAt).toBeDefined();
  return { code, stderr: lines.join(""), stopMs: performance.now() - (stoppingAt ?? 0) };
}
