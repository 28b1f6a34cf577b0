import { describe, expect, it } from "vitest";
import type { CliIo } from "../../../src/cli/command.js";
import { main } from "../../../src/cli/main.js";

function io(env: NodeJS.ProcessEnv = {}): CliIo & { out: () => string; err: () => string } {
  let out = "";
  let err = "";
  return {
    stdout: (t) => {
      out += t;
    },
    stderr: (t) => {
      err += t;
    },
    // A free metrics port, so parallel test files never collide on the default one.
    env: { MM_METRICS_PORT: "0", ...env },
    cwd: process.cwd(),
    out: () => out,
    err: () => err,
  };
}

describe("mm run / mm paper on the command line", () => {
  it("are listed by mm --help, and their help documents the exit codes", async () => {
    const a = io();
    expect(await main(["--help"], a)).toBe(0);
    expect(a.out()).toMatch(/\n {2}run +Run the market maker/);
    expect(a.out()).toMatch(/\n {2}paper +Paper trading/);
    for (const cmd of ["run", "paper"]) {
      const b = io();
      expect(await main([cmd, "--help"], b)).toBe(0);
      expect(b.out()).toContain("  3  the exchange refused the API key for good");
    }
  });

  it("mm run exits 2 with one line per bad strategy parameter, before connecting anywhere", async () => {
    const a = io({
      MM_ENGINE_MARKETS: "*",
      MM_ENGINE_STRATEGY: '{"name":"avellaneda-stoikov","params":{"gamma":0,"k":100}}',
      MM_EXCHANGE_BASE_URL: "http://127.0.0.1:9", // nothing listens: nothing may be sent
    });
    expect(await main(["run"], a)).toBe(2);
    expect(a.err()).toBe(
      [
        "config error: engine.strategy.params.gamma: must be > 0 (from env MM_ENGINE_STRATEGY) (code config_invalid)",
        "config error: engine.strategy.params.orderSize: required (a decimal string) (from env MM_ENGINE_STRATEGY) (code config_invalid)",
        "",
      ].join("\n"),
    );
  });

  it("mm run exits 2 naming how to provide a missing API key", async () => {
    const a = io({ MM_ENGINE_MARKETS: "*", MM_EXCHANGE_BASE_URL: "http://127.0.0.1:9" });
    expect(await main(["run"], a)).toBe(2);
    expect(a.err()).toContain("config error: secrets.apiKey: required: set MM_API_KEY or secrets.apiKeyFile");
  });

  it("mm run with nothing configured names every missing start setting at once (key, wallet, markets)", async () => {
    // A newcomer's first `mm run`: each missing setting used to surface one run at a time.
    const a = io({ MM_EXCHANGE_BASE_URL: "http://127.0.0.1:9", MM_LOG_LEVEL: "silent" });
    expect(await main(["run"], a)).toBe(2);
    expect(a.err()).toBe(
      [
        "config error: secrets.apiKey: required: set MM_API_KEY or secrets.apiKeyFile (MM_API_KEY_FILE) (code config_invalid)",
        "config error: secrets.privateKey: required: set MM_PRIVATE_KEY or secrets.privateKeyFile (MM_PRIVATE_KEY_FILE) (code config_invalid)",
        'config error: engine.markets: nothing to quote: list market slugs, or ["*"] for every market (code config_invalid)',
        "",
      ].join("\n"),
    );
  });

  it("mm run exits 2 naming metrics.host when that address cannot be bound, before connecting anywhere", async () => {
    // 192.0.2.1 is TEST-NET-1: never an address of this machine, so listen() fails (EADDRNOTAVAIL).
    const a = io({
      MM_METRICS_HOST: "192.0.2.1",
      MM_JOURNAL_ENABLED: "false",
      MM_LOG_LEVEL: "silent",
      MM_EXCHANGE_BASE_URL: "http://127.0.0.1:9", // nothing listens: nothing may be sent
    });
    expect(await main(["run"], a)).toBe(2);
    // Named with the missing start settings, in one attempt (review17 Q2).
    expect(a.err()).toBe(
      [
        "config error: secrets.apiKey: required: set MM_API_KEY or secrets.apiKeyFile (MM_API_KEY_FILE) (code config_invalid)",
        "config error: secrets.privateKey: required: set MM_PRIVATE_KEY or secrets.privateKeyFile (MM_PRIVATE_KEY_FILE) (code config_invalid)",
        'config error: engine.markets: nothing to quote: list market slugs, or ["*"] for every market (code config_invalid)',
        "config error: metrics.host: 192.0.2.1 is not an address of this machine (EADDRNOTAVAIL): use one of its addresses, 127.0.0.1 or 0.0.0.0 (from env MM_METRICS_HOST) (code config_invalid)",
        "",
      ].join("\n"),
    );
  });

  it("mm paper exits 2 naming metrics.host too (it takes a free port when the port is busy, not another host)", async () => {
    const a = io({ MM_METRICS_HOST: "192.0.2.1", MM_LOG_LEVEL: "silent" });
    expect(await main(["paper", "--port", "0", "--no-flow"], a)).toBe(2);
    expect(a.err()).toContain("config error: metrics.host: 192.0.2.1 is not an address of this machine");
  });
});
