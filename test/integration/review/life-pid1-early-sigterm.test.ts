import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createMockExchange } from "../../../src/mock/mock-exchange.js";
import { childSlots, spawnMm } from "../../e2e/support.js";
import { daemonEnv, market, openOnMock, SCENARIO, seedMarket } from "../daemon/support.js";

const slots = childSlots();

/** Whether this machine lets us run a process as PID 1 of a new PID namespace (as in a container). */
const canUnshare = (() => {
  const args = process.getuid?.() === 0 ? [] : ["--user", "--map-root-user"];
  const r = spawnSync("unshare", [...args, "--pid", "--fork", "true"], { timeout: 5_000 });
  return r.status === 0 ? args : undefined;
})();

/** The pid (in our namespace) of the process `unshare --fork` started: PID 1 inside its namespace. */
async function forkedChild(unsharePid: number): Promise<number> {
  for (let i = 0; i < 250; i++) {
    try {
      const pid = Number(
        readFileSync(`/proc/${unsharePid}/task/${unsharePid}/children`, "utf8").trim().split(" ")[0],
      );
      if (pid > 0) return pid;
    } catch {
      // not forked yet
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error("unshare did not fork");
}

/**
 * The Docker image runs `ENTRYPOINT ["node", "bin/mm.js"]`, so node is PID 1 of the container, and
 * the kernel drops every signal PID 1 has no handler for. mm installs its SIGTERM/SIGINT/SIGHUP
 * handlers only once the command runs (runUntilStopped, after the modules have loaded and the
 * configuration was read). A `docker stop` (or `docker compose restart`, a redeploy) that lands in
 * that window is lost: the daemon goes on to start and quote, and Docker SIGKILLs it at the end of
 * the grace period, leaving every quote resting on the exchange (signing.orderExpirySeconds
 * defaults to 0: they never expire). README ("Running"): "A signal during start-up quotes nothing".
 * Simulated here with `unshare --pid --fork`, which makes mm PID 1 of a new PID namespace exactly as
 * a container does.
 */
describe("mm run as PID 1 (the Docker image): SIGTERM right after exec", () => {
  it.skipIf(canUnshare === undefined)(
    "is not dropped: mm stops promptly and leaves no order on the exchange",
    async () => {
      slots.mock = await createMockExchange({ scenario: SCENARIO, flow: false });
      const arg = market("arg-vs-fra-final-arg-win");
      seedMarket(slots.mock, arg, "0.50", "0.60");
      slots.mm = spawnMm(["run"], daemonEnv(slots.mock, [arg.slug], { MM_SHUTDOWN_TIMEOUT_MS: "3000" }), [
        "unshare",
        ...(canUnshare ?? []),
        "--pid",
        "--fork",
        "--kill-child",
        process.execPath,
        "--import",
        "tsx",
        "src/cli/main.ts",
      ]);
      const node = await forkedChild(slots.mm.child.pid ?? 0);
      process.kill(node, "SIGTERM"); // docker stop, while node still loads mm
      const ended = await Promise.race([
        slots.mm.exited.then(() => true),
        new Promise<false>((r) => setTimeout(() => r(false), 10_000)),
      ]);
      // Was: still running 10 s later, quoting (the SIGTERM was dropped by the kernel).
      expect({ ended, open: openOnMock(slots.mock).length }).toEqual({ ended: true, open: 0 });
    },
    30_000,
  );
});
