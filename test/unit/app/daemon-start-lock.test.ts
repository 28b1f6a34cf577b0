import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startDaemon } from "../../../src/app/daemon.js";
import { orderBuilder } from "../../../src/app/exchange.js";
import { lockDaemonJournal } from "../../../src/app/journal.js";
import type { JournalSettings } from "../../../src/app/journal-settings.js";
import { loadConfig } from "../../../src/config/load.js";
import type { MmConfig } from "../../../src/config/types.js";
import { SimClock } from "../../../src/core/sim-clock.js";
import { API_KEY, market, memoryLogger, PRIVATE_KEY } from "../../integration/daemon/support.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/**
 * startDaemon takes the journal's account lock before it builds the exchange client. A client that
 * cannot be built (here an X-User-Wallet the client refuses, which the configuration's checks
 * would have caught: the config is forged past them) threw outside the start's try, leaving the lock
 * held for the rest of the process: an embedding program or a test that starts again on the same
 * journal was refused "another mm runs on the account".
 */
describe("startDaemon: a client that cannot be built", () => {
  it("releases the journal's account lock it took", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mm-start-lock-"));
    dirs.push(dir);
    const loaded = loadConfig({
      env: {
        MM_EXCHANGE_BASE_URL: "http://127.0.0.1:9",
        MM_EXCHANGE_WS_URL: "ws://127.0.0.1:9",
        MM_API_KEY: API_KEY,
        MM_PRIVATE_KEY: PRIVATE_KEY,
        MM_ENGINE_MARKETS: JSON.stringify([market("arg-vs-fra-final-arg-win").slug]),
      },
    });
    const config: MmConfig = {
      ...loaded,
      exchange: { ...loaded.exchange, partnerKind: "multi_wallet", userWallet: "0xnot-a-wallet" },
    };
    const journal: JournalSettings = {
      path: join(dir, "journal.sqlite"),
      snapshotIntervalMs: 60_000,
      sync: "normal",
    };
    const clock = new SimClock(1_700_000_000_000);
    const { logger } = memoryLogger("info");

    await expect(startDaemon(config, { logger, clock, journal })).rejects.toMatchObject({
      code: "invalid_user_wallet",
    });
    // Was: ConfigError journal.path "… in use" — the failed start still held the lock.
    const { maker } = orderBuilder(config);
    const lock = lockDaemonJournal(journal, { baseUrl: config.exchange.baseUrl, maker, session: "s", clock });
    lock.release();
  });
});
