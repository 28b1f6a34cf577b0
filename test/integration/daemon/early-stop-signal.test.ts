import { rmSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { createMockExchange } from "../../../src/mock/mock-exchange.js";
import { childSlots, spawnMm } from "../../e2e/support.js";
import { canUnshare, configPipe, forkedChild, whenReading } from "../../support/signal-window.js";
import { daemonEnv, market, openOnMock, SCENARIO, seedMarket, waitFor } from "./support.js";

const slots = childSlots();
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/**
 * A stop signal that arrives before `mm run` has started its lifecycle (while node loads mm, or while
 * the configuration is read) must stop it like one during the start: nothing quoted, exit 0. Held
 * from the first moment (holdEarlySignals in runCli and bin/mm.js), it is handed to the lifecycle,
 * which abandons the start. Before, there was no handler yet: a plain process died of the signal,
 * and PID 1 (the Docker image runs node as the container's init) had it dropped by the kernel: mm
 * went on to start and quote, and `docker stop` SIGKILLed it at the end of its grace period with
 * every quote resting (signing.orderExpirySeconds defaults to 0: they never expire).
 * The window is held open with a named pipe as a --config file: reading it blocks start-up until the
 * test writes it. (A signal in node's own first milliseconds, before any JavaScript runs, cannot be
 * caught by mm: as PID 1 only an init such as `docker run --init` closes that, see README.)
 */
describe("mm run: a stop signal before the lifecycle exists", () => {
  const startRun = async (wrap: readonly string[]) => {
    const mock = await createMockExchange({ scenario: SCENARIO, flow: false });
    slots.mock = mock;
    const arg = market("arg-vs-fra-final-arg-win");
    seedMarket(mock, arg, "0.50", "0.60");
    const fifo = configPipe(dirs);
    const mm = spawnMm(
      ["run", "--config", fifo],
      daemonEnv(mock, [arg.slug], { MM_SHUTDOWN_TIMEOUT_MS: "3000" }),
      [...wrap, process.execPath, "--import", "tsx", "src/cli/main.ts"],
    );
    slots.mm = mm;
    return { mm, fifo, mock };
  };

  const settled = async (exited: Promise<number | string>) =>
    Promise.race([exited, new Promise<"running">((r) => setTimeout(() => r("running"), 10_000))]);

  it("SIGTERM while the configuration is read: exit 0, nothing quoted", async () => {
    const { mm, fifo, mock } = await startRun([]);
    await whenReading(fifo, () => mm.child.kill("SIGTERM"), "{}");
    // Was: "SIGTERM" (killed by the signal, no stop line, no exit code).
    expect(await settled(mm.exited)).toBe(0);
    expect(mm.stderr()).toContain("mm run: stopped (SIGTERM); exit 0");
    expect(openOnMock(mock).length).toBe(0);
  }, 30_000);

  it.skipIf(canUnshare === undefined)(
    "as PID 1 (the Docker image): the SIGTERM is not dropped; mm stops, exit 0, no order left",
    async () => {
      const { mm, fifo, mock } = await startRun([
        "unshare",
        ...(canUnshare ?? []),
        "--pid",
        "--fork",
        "--kill-child",
      ]);
      const node = await waitFor(() => forkedChild(mm.child.pid ?? 0), 5_000, "unshare to fork");
      await whenReading(fifo, () => process.kill(node, "SIGTERM"), "{}"); // docker stop
      // Was: still running 10 s later and quoting (the kernel dropped the SIGTERM).
      expect({ ended: await settled(mm.exited), open: openOnMock(mock).length }).toEqual({
        ended: 0,
        open: 0,
      });
      expect(mm.stderr()).toContain("mm run: stopped (SIGTERM); exit 0");
    },
    30_000,
  );
});
