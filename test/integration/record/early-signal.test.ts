import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createMockExchange } from "../../../src/mock/mock-exchange.js";
import { childSlots, spawnMm } from "../../e2e/support.js";
import { canUnshare, configPipe, forkedChild, poll, whenReading } from "../../support/signal-window.js";
import { API_KEY, market, SCENARIO } from "../daemon/support.js";

const slots = childSlots();
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/*
 * review17-rec: a stop signal while `mm record` starts (node loading mm, the configuration being
 * read) must stop it like one later: the summary printed, exit 0. `record` was not among the
 * commands whose signals are held from the first moment (early-signals.ts), so a plain process
 * died of the signal, and as PID 1 (the Docker image) the kernel dropped it: the recorder went on
 * recording until `docker stop` SIGKILLed it 10 s later (losing about the last second of frames).
 * The window is held open with a named pipe as the --config file (see early-stop-signal.test.ts).
 */
describe("mm record: a stop signal before its own handlers exist", () => {
  const startRecord = async (wrap: readonly string[]) => {
    const mock = await createMockExchange({ scenario: SCENARIO, flow: false });
    slots.mock = mock;
    const arg = market("arg-vs-fra-final-arg-win");
    const fifo = configPipe(dirs);
    const out = join(fifo, "..", "rec");
    const mm = spawnMm(
      ["record", "--config", fifo, "--tokens", arg.yesTokenId, "--out", out],
      { MM_EXCHANGE_WS_URL: mock.wsUrl, MM_API_KEY: API_KEY, MM_LOG_LEVEL: "warn" },
      [...wrap, process.execPath, "--import", "tsx", "src/cli/main.ts"],
    );
    slots.mm = mm;
    return { mm, fifo };
  };

  const settled = async (exited: Promise<number | string>) =>
    Promise.race([exited, new Promise<"running">((r) => setTimeout(() => r("running"), 10_000))]);

  it("SIGTERM while the configuration is read: the summary, exit 0", async () => {
    const { mm, fifo } = await startRecord([]);
    await whenReading(fifo, () => mm.child.kill("SIGTERM"), "{}");
    // Was: "SIGTERM" (killed by the signal, no summary).
    expect(await settled(mm.exited), mm.stderr()).toBe(0);
    expect(mm.records[0]).toMatchObject({ fatal: null, frames: expect.any(Number) });
  }, 30_000);

  it.skipIf(canUnshare === undefined)(
    "as PID 1 (the Docker image): the SIGTERM is not dropped; the summary, exit 0",
    async () => {
      const { mm, fifo } = await startRecord([
        "unshare",
        ...(canUnshare ?? []),
        "--pid",
        "--fork",
        "--kill-child",
      ]);
      const node = await poll(() => forkedChild(mm.child.pid ?? 0), 5_000, "unshare to fork");
      await whenReading(fifo, () => process.kill(node, "SIGTERM"), "{}"); // docker stop
      // Was: still recording 10 s later (the kernel dropped the SIGTERM).
      expect(await settled(mm.exited), mm.stderr()).toBe(0);
      expect(mm.records[0]).toMatchObject({ fatal: null });
    },
    30_000,
  );
});
