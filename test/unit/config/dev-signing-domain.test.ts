import { describe, expect, it } from "vitest";
import { startDaemon } from "../../../src/app/daemon.js";
import { StartStoppedError } from "../../../src/app/start-errors.js";
import { devSigningDomainWarning } from "../../../src/config/dev-signing-domain.js";
import { loadConfig } from "../../../src/config/load.js";
import { createLogger } from "../../../src/observability/logger.js";
import { collectingStream } from "../../support/collecting-stream.js";
import { TEST_API_KEY } from "../../support/exchange-fixtures.js";

const PK = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
// config/live.example.json's signing domain: what a live deployment replaces the defaults with.
const LIVE_DOMAIN = {
  MM_SIGNING_CHAIN_ID: "137",
  MM_SIGNING_EXCHANGE_CONTRACT: "0x1111111111111111111111111111111111111111",
  MM_SIGNING_NEG_RISK_EXCHANGE_CONTRACT: "0x2222222222222222222222222222222222222222",
};

const config = (baseUrl: string, extra: Record<string, string> = {}) =>
  loadConfig({
    env: {
      MM_API_KEY: TEST_API_KEY,
      MM_PRIVATE_KEY: PK,
      MM_ENGINE_MARKETS: '["*"]',
      MM_EXCHANGE_BASE_URL: baseUrl,
      MM_EXCHANGE_WS_URL: baseUrl.replace(/^http/, "ws"),
      MM_JOURNAL_ENABLED: "false",
      ...extra,
    },
    cwd: "/",
  });

// review s24 (signing domain): a live config that kept the local-dev chain 31337 or the mock's
// contracts had every placement refused bad_signature until the error-rate halt, with nothing said
// at start about the domain.
describe("mm run start: the local-dev signing domain against an exchange beyond this machine", () => {
  it("names each setting still at its default, with its value", () => {
    const w = devSigningDomainWarning(config("https://api.example.com"));
    expect(w?.settings).toEqual([
      "signing.chainId",
      "signing.exchangeContract",
      "signing.negRiskExchangeContract",
    ]);
    expect(w?.message).toContain("exchange.baseUrl is api.example.com");
    expect(w?.message).toContain("signing.chainId is 31337 (the default)");
    expect(w?.message).toContain("signing.exchangeContract is 0x5FbDB2315678afecb367f032d93F642f64180aa3");
    expect(w?.message).toContain("bad_signature");
  });

  it("a default set explicitly is named with where it was set; the replaced ones are not named", () => {
    const w = devSigningDomainWarning(
      config("https://api.example.com", { ...LIVE_DOMAIN, MM_SIGNING_CHAIN_ID: "31337" }),
    );
    expect(w?.settings).toEqual(["signing.chainId"]);
    expect(w?.message).toContain("signing.chainId is 31337 (from env MM_SIGNING_CHAIN_ID)");
    const lower = {
      ...LIVE_DOMAIN,
      MM_SIGNING_NEG_RISK_EXCHANGE_CONTRACT: "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512",
    };
    expect(devSigningDomainWarning(config("https://api.example.com", lower))?.settings).toEqual([
      "signing.negRiskExchangeContract",
    ]);
  });

  it("says nothing for the live values, or for a loopback exchange (the mock, a local proxy)", () => {
    expect(devSigningDomainWarning(config("https://api.example.com", LIVE_DOMAIN))).toBeUndefined();
    for (const url of [
      "http://127.0.0.1:8080",
      "http://localhost:9",
      "http://[::1]:8080",
      "https://127.0.0.2",
    ]) {
      expect(devSigningDomainWarning(config(url))).toBeUndefined();
    }
  });

  it("startDaemon warns before anything is sent (a stop already requested: no request made)", async () => {
    const sink = collectingStream();
    const logger = createLogger({ level: "info", pretty: false, destination: sink });
    await expect(
      startDaemon(config("https://api.example.invalid"), { logger, stopRequested: AbortSignal.abort() }),
    ).rejects.toBeInstanceOf(StartStoppedError);
    const warn = sink
      .records()
      .find((r) => r.level === 40 && String(r.msg).startsWith("exchange.baseUrl is"));
    expect(warn?.settings).toEqual([
      "signing.chainId",
      "signing.exchangeContract",
      "signing.negRiskExchangeContract",
    ]);
  });
});
