import { describe, expect, it } from "vitest";
import { abortRequests } from "../../../src/app/lifecycle.js";
import { startPaperExchange } from "../../../src/app/paper.js";
import { createPaperCommand } from "../../../src/cli/paper.js";
import { createLogger } from "../../../src/observability/logger.js";
import { collectingStream } from "../../support/collecting-stream.js";
import { makeApiKey, PRIVATE_KEY, tempDirPerTest } from "../../unit/config/support.js";
import { API_KEY } from "../daemon/support.js";

/**
 * Paper trading with a configuration made for live trading (config/live.example.json names both
 * key files): paper's keys come from the scenario, so the key files must be neither read nor
 * checked, nor collide with the scenario's keys ("set by both … use one").
 */
const tmp = tempDirPerTest();

describe("mm paper with a --config file naming key files", () => {
  it("ignores secrets.apiKeyFile / privateKeyFile from files and uses the scenario's keys", async () => {
    const apiKeyFile = tmp.file("api-key", makeApiKey().key, 0o600);
    const privateKeyFile = tmp.file("private-key", PRIVATE_KEY, 0o600);
    const live = tmp.file("live.json", { secrets: { apiKeyFile, privateKeyFile } });
    const paper = await startPaperExchange({
      files: [live],
      env: {},
      cwd: tmp.dir,
      port: 0,
      flow: false,
      logger: createLogger({ level: "silent" }),
    });
    try {
      expect(paper.config.secrets.apiKey?.source).toBe("env MM_API_KEY");
      expect(paper.config.secrets.apiKey?.value.reveal()).toBe(API_KEY);
      expect(paper.config.secrets.privateKey?.source).toBe("env MM_PRIVATE_KEY");
      expect(paper.config.secrets.apiKeyFile).toBeNull();
      expect(paper.config.secrets.privateKeyFile).toBeNull();
    } finally {
      await paper.mock.close();
    }
  });

  it("runs and stops cleanly though those files are missing or readable by others", async () => {
    const loose = tmp.file("api-key", makeApiKey().key, 0o644);
    const live = tmp.file("live.json", {
      secrets: { apiKeyFile: loose, privateKeyFile: `${tmp.dir}/no-such-key` },
    });
    let stderr = "";
    const sink = collectingStream();
    const ac = new AbortController();
    ac.abort(); // stop as soon as it is up
    const paper = createPaperCommand({ requests: abortRequests(ac.signal), logDestination: sink });
    const code = await paper.run(["--config", live, "--port", "0", "--no-flow"], {
      stdout: () => undefined,
      stderr: (t) => {
        stderr += t;
      },
      env: { MM_METRICS_PORT: "0", MM_LOG_PRETTY: "false", MM_JOURNAL_ENABLED: "false" },
      cwd: tmp.dir,
    });
    expect(stderr).toContain("mm paper: stopped (aborted); exit 0");
    expect(code).toBe(0);
    expect(sink.text()).toContain("paper: the mock exchange holds 0 open order(s) of the paper wallet");
  });
});
