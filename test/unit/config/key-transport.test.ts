import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startSettingsIssues } from "../../../src/app/start-settings.js";
import { createRecordCommand } from "../../../src/cli/record.js";
import { ConfigError } from "../../../src/config/errors.js";
import { loadConfig } from "../../../src/config/load.js";
import { TEST_API_KEY } from "../../support/exchange-fixtures.js";

const PK = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";

const config = (baseUrl: string, wsUrl: string) =>
  loadConfig({
    env: {
      MM_API_KEY: TEST_API_KEY,
      MM_PRIVATE_KEY: PK,
      MM_ENGINE_MARKETS: '["*"]',
      MM_EXCHANGE_BASE_URL: baseUrl,
      MM_EXCHANGE_WS_URL: wsUrl,
    },
    cwd: "/",
  });

// review s24-walksec: a live config with `http://` (a typo of https, or a plain endpoint) was
// accepted: every request, and the WebSocket upgrade, then sent X-Api-Key in clear text.
describe("mm run: an exchange reached over plain http:// or ws:// beyond this machine", () => {
  it("is refused before the start: X-Api-Key would cross the network unencrypted", () => {
    const issues = startSettingsIssues(config("http://api.example.com", "ws://ws.example.com:8443"));
    expect(issues.map((i) => i.field)).toEqual(["exchange.baseUrl", "exchange.wsUrl"]);
    expect(issues[0]?.message).toMatch(/http:\/\/.*api\.example\.com.*https:\/\//);
    expect(issues[1]?.message).toMatch(/ws:\/\/.*ws\.example\.com.*wss:\/\//);
  });

  it("passes https/wss anywhere, and plain http/ws to a loopback address (the mock, a local TLS proxy)", () => {
    expect(startSettingsIssues(config("https://api.example.com", "wss://ws.example.com"))).toEqual([]);
    for (const [b, w] of [
      ["http://127.0.0.1:8080", "ws://127.0.0.1:8080"],
      ["http://127.9.8.7", "ws://localhost:9"],
      ["http://[::1]:8080", "ws://LOCALHOST"],
    ] as const) {
      expect(startSettingsIssues(config(b, w))).toEqual([]);
    }
  });
});

describe("mm record: the same refusal, before it connects", () => {
  it("a ws:// gateway beyond this machine: config error (exit 2), nothing connected, no file written", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mm-cleartext-"));
    try {
      const env = { MM_API_KEY: TEST_API_KEY, MM_EXCHANGE_BASE_URL: "https://api.example.com" };
      const io = {
        stdout: () => undefined,
        stderr: () => undefined,
        env: { ...env, MM_EXCHANGE_WS_URL: "ws://ws.example.com" },
        cwd: dir,
      };
      const run = createRecordCommand({ signal: AbortSignal.abort() }).run(
        ["--tokens", "1", "--out", "rec"],
        io,
      );
      const err = await run.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).issues.map((i) => i.field)).toEqual(["exchange.wsUrl"]);
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
