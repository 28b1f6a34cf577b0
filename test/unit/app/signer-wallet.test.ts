import { describe, expect, it } from "vitest";
import {
  actOnSignerWallet,
  checkSignerWallet,
  SIGNER_READ_TIMEOUT_MS,
  type WalletSource,
} from "../../../src/app/signer-wallet.js";
import { StartStoppedError } from "../../../src/app/start-errors.js";
import { ConfigError } from "../../../src/config/errors.js";
import { loadConfig } from "../../../src/config/load.js";
import { ExchangeError } from "../../../src/exchange/exchange-error.js";
import type { ReadOptions } from "../../../src/exchange/markets.js";
import { API_KEY, memoryLogger, PRIVATE_KEY, WALLET } from "../../integration/daemon/support.js";

const CONFIG = loadConfig({
  env: {
    MM_API_KEY: API_KEY,
    MM_PRIVATE_KEY: PRIVATE_KEY,
    MM_ENGINE_MARKETS: JSON.stringify(["some-market"]),
  },
});

const answering = (walletAddress: string): WalletSource => ({ list: async () => ({ walletAddress }) });

describe("checkSignerWallet: the signing key against the API key's wallet", () => {
  it("passes the key of the wallet the exchange names, in any case", async () => {
    expect(await checkSignerWallet(answering(WALLET.toUpperCase().replace("0X", "0x")), CONFIG)).toEqual({
      kind: "same",
    });
  });

  it("another wallet is a config error on secrets.privateKey, thrown by actOnSignerWallet", async () => {
    const verdict = await checkSignerWallet(answering("0x70997970c51812dc3a010c7d01b50e0d17dc79c8"), CONFIG);
    expect(verdict.kind).toBe("other");
    const { logger } = memoryLogger();
    let thrown: unknown;
    try {
      actOnSignerWallet(verdict, logger);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as ConfigError).issues.map((i) => i.field)).toEqual(["secrets.privateKey"]);
  });

  it("a read that fails is warned of, once, and the start goes on", async () => {
    const failing: WalletSource = {
      list: async () => {
        throw new ExchangeError({
          code: "exchange_unavailable",
          message: "503",
          outcome: "retryable",
          endpoint: "GET /api/me/withdrawals",
        });
      },
    };
    const verdict = await checkSignerWallet(failing, CONFIG);
    expect(verdict).toMatchObject({ kind: "unread", code: "exchange_unavailable" });
    const { logger, sink } = memoryLogger();
    actOnSignerWallet(verdict, logger);
    const warned = sink.records().filter((r) => Number(r.level) === 40);
    expect(warned.map((r) => r.code)).toEqual(["exchange_unavailable"]);
    expect(String(warned[0]?.msg)).toContain("secrets.privateKey");
  });

  it("a stop requested while the read is unanswered ends the wait, and the start as a stop during the market reads does", async () => {
    const unanswered: WalletSource = { list: () => new Promise(() => undefined) };
    const stop = new AbortController();
    const verdict = checkSignerWallet(unanswered, CONFIG, stop.signal);
    stop.abort("SIGTERM");
    expect(await verdict).toEqual({ kind: "stopped", reason: "SIGTERM" });
    // It used to return, and the start went on to open the journal with an empty run.
    const { logger } = memoryLogger();
    expect(() => actOnSignerWallet({ kind: "stopped", reason: "SIGTERM" }, logger)).toThrow(
      StartStoppedError,
    );
  });

  it("reads once, no retry, bounded by SIGNER_READ_TIMEOUT_MS or exchange.requestTimeoutMs if shorter", async () => {
    const asked: ReadOptions[] = [];
    const recording: WalletSource = {
      list: async (_query, opts) => {
        asked.push(opts);
        return { walletAddress: WALLET };
      },
    };
    await checkSignerWallet(recording, CONFIG);
    const short = loadConfig({
      env: {
        MM_API_KEY: API_KEY,
        MM_PRIVATE_KEY: PRIVATE_KEY,
        MM_ENGINE_MARKETS: JSON.stringify(["some-market"]),
        MM_EXCHANGE_REQUEST_TIMEOUT_MS: "1000",
      },
    });
    await checkSignerWallet(recording, short);
    expect(SIGNER_READ_TIMEOUT_MS).toBeLessThan(CONFIG.exchange.requestTimeoutMs);
    expect(asked).toEqual([
      { maxAttempts: 1, timeoutMs: SIGNER_READ_TIMEOUT_MS },
      { maxAttempts: 1, timeoutMs: 1_000 },
    ]);
  });
});
