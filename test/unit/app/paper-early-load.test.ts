import { describe, expect, it } from "vitest";
import { abortRequests } from "../../../src/app/lifecycle.js";
import { startPaperExchange } from "../../../src/app/paper.js";
import { createPaperCommand } from "../../../src/cli/paper.js";
import { createLogger } from "../../../src/observability/logger.js";
import { collectingStream } from "../../support/collecting-stream.js";
import { tempDirPerTest } from "../config/support.js";

/*
 * The market-limits refusal (src/config/market-limits.ts) reads each named market's tick from
 * `markets.*`. `mm paper` loads the config twice: an early load (src/cli/paper.ts) for the logger,
 * metrics and shutdown timeout, from the --config files alone, and the real one
 * (startPaperExchange) with config/paper.json and the scenario's tick sizes. The early load does
 * not see the ticks the daemon will use, so it can refuse a limit the real config accepts.
 * arg-vs-fra-final-penalties has tick 0.001 in the default scenario and in config/paper.json: one
 * minimum-size order (1 share) at one tick costs 0.001 USDC, within maxNotional 0.002.
 */
const SLUG = "arg-vs-fra-final-penalties";

const tmp = tempDirPerTest();

describe("mm paper: the market-limits refusal against paper's own tick sizes", () => {
  it("runs with a maxNotional that fits one minimum-size order at the market's paper tick", async () => {
    const cfg = tmp.file("paper-limits.json", {
      engine: { markets: [SLUG] },
      risk: { order: { maxNotional: "0.002" } },
    });
    // The configuration the paper daemon really runs with accepts it.
    const paper = await startPaperExchange({
      files: [cfg],
      env: {},
      cwd: tmp.dir,
      port: 0,
      flow: false,
      logger: createLogger({ level: "silent" }),
    });
    try {
      expect(paper.config.markets.tickSizes[SLUG]).toBe("0.001");
    } finally {
      await paper.mock.close();
    }

    let stderr = "";
    const ac = new AbortController();
    ac.abort(); // stop as soon as it is up
    const cmd = createPaperCommand({
      requests: abortRequests(ac.signal),
      logDestination: collectingStream(),
    });
    const run = cmd.run(["--config", cfg, "--port", "0", "--no-flow"], {
      stdout: () => undefined,
      stderr: (t) => {
        stderr += t;
      },
      env: { MM_METRICS_PORT: "0", MM_LOG_PRETTY: "false", MM_JOURNAL_ENABLED: "false" },
      cwd: tmp.dir,
    });
    // Before the fix: ConfigError "risk.order.maxNotional: must be ≥ 0.01 (one minimum-size order
    // at one tick on arg-vs-fra-final-penalties), got 0.002", from the early load's default tick.
    await expect(run).resolves.toBe(0);
    expect(stderr).toContain("mm paper: stopped (aborted); exit 0");
  }, 30_000);
});
