import { execFileSync, spawn, spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { packageRoot } from "../../../src/config/paths.js";
import { createMockExchange, type MockExchange } from "../../../src/mock/mock-exchange.js";
import { childEnv } from "../../e2e/support.js";
import { daemonEnv, market, openOnMock, SCENARIO, seedMarket, waitFor } from "./support.js";

/** Whether `prlimit` can change a running process's limits here. */
const hasPrlimit = spawnSync("prlimit", ["--version"]).status === 0;

let mock: MockExchange | undefined;
let child: ReturnType<typeof spawn> | undefined;
const dirs: string[] = [];
afterEach(async () => {
  if (child !== undefined && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  child = undefined;
  await mock?.close();
  mock = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/**
 * An uncaught error in `mm run` (README, exit codes): the log destination re-throws a write error
 * other than a gone reader's (EIO/EPIPE): logs going to a file that can no longer grow (a full
 * disk's ENOSPC; here the file-size limit's EFBIG, set on the running process with prlimit). That
 * error is uncaught. Before, Node ended the process at once, exit 1, printing the stack itself
 * (past mm's secret scrubbing) and leaving every quote resting on the exchange
 * (signing.orderExpirySeconds defaults to 0: they never expire). Now it runs the usual bounded
 * stop: every quote cancelled, the error named on stderr, exit 1.
 */
describe("mm run: an uncaught error while quoting", () => {
  it.skipIf(!hasPrlimit)(
    "cancels every quote, names the error on stderr, and exits 1",
    async () => {
      mock = await createMockExchange({ scenario: SCENARIO, flow: false });
      const m = mock;
      const arg = market("arg-vs-fra-final-arg-win");
      seedMarket(m, arg, "0.50", "0.60");
      const dir = mkdtempSync(join(tmpdir(), "mm-uncaught-"));
      dirs.push(dir);
      const logFile = join(dir, "mm.log");
      const out = openSync(logFile, "w");
      const env = daemonEnv(m, [arg.slug], { MM_SHUTDOWN_TIMEOUT_MS: "5000", MM_LOG_LEVEL: "debug" });
      const proc = spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", "run"], {
        cwd: packageRoot(),
        env: childEnv(env),
        stdio: ["ignore", out, "pipe"],
      });
      child = proc;
      closeSync(out);
      let stderr = "";
      proc.stderr?.setEncoding("utf8").on("data", (c: string) => {
        stderr += c;
      });
      const exited = new Promise<number | string>((r) =>
        proc.once("exit", (code, signal) => r(code ?? signal ?? "unknown")),
      );
      await waitFor(() => openOnMock(m).length > 0, 20_000, "mm to quote");
      // The log file cannot grow any more: the next line's write fails with EFBIG.
      execFileSync("prlimit", ["--pid", String(proc.pid), `--fsize=${statSync(logFile).size}`]);
      seedMarket(m, arg, "0.52", "0.58"); // a book change: the engine logs (at debug) and requotes
      const code = await Promise.race([
        exited,
        new Promise<"running">((r) => setTimeout(() => r("running"), 15_000)),
      ]);
      // Was: exit 1 at once with every quote still open, and Node's own stack printout.
      expect({ code, open: openOnMock(m).length }).toEqual({ code: 1, open: 0 });
      expect(stderr).toContain("mm run: uncaughtException: Error: EFBIG");
      expect(stderr).toContain("uncaughtException: cancelling every quote, then exiting with code 1");
      expect(stderr).toContain("mm run: stopped (uncaughtException); exit 1");
    },
    60_000,
  );
});
