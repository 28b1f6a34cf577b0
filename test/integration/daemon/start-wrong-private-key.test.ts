import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startDaemon } from "../../../src/app/daemon.js";
import { ConfigError } from "../../../src/config/errors.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { serverSlots } from "./rest-front.js";
import { daemonConfig, market, memoryLogger, SCENARIO, startMock, WALLET } from "./support.js";

/*
 * A private key that is a valid wallet's, but not the one the API key acts for: every placement is
 * refused maker_mismatch (spec, placement rule 1). It used to start, answer /ready 200, journal a new
 * account for that wallet, and fail every order until the error-rate halt. The start now reads the
 * key's wallet (GET /api/me/withdrawals walletAddress) and refuses: a config error on
 * secrets.privateKey (exit 2), nothing journaled, no order sent.
 */

const ARG = market("arg-vs-fra-final-arg-win");
const OTHER_WALLET = SCENARIO.wallets[1];
const slots = serverSlots();
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("daemon: a private key of another wallet than the API key's", () => {
  it("is refused at start naming secrets.privateKey and both wallets; the journal gets no run", async () => {
    const other = OTHER_WALLET?.privateKey;
    if (OTHER_WALLET === undefined || other === undefined) throw new Error("scenario wallets[1] has no key");
    const m = await startMock();
    slots.mock = m;
    const dir = mkdtempSync(join(tmpdir(), "mm-wrong-key-"));
    dirs.push(dir);
    const journal = {
      path: join(dir, "journal.sqlite"),
      snapshotIntervalMs: 60_000,
      sync: "normal" as const,
    };
    const { logger } = memoryLogger();
    const err = await startDaemon(daemonConfig(m, [ARG.slug], { MM_PRIVATE_KEY: other }), {
      logger,
      journal,
    }).then(
      async (d) => {
        await d.stop("test over");
        return new Error("the daemon started");
      },
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ConfigError);
    const lines = (err as ConfigError).lines();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^secrets\.privateKey: is the key of wallet 0x70997970C51812dc3A010C7d01b50e0d17dc79C8 \(from env MM_PRIVATE_KEY\)/,
    );
    expect(lines[0]).toContain(`the API key acts for wallet ${WALLET}`);
    expect(lines[0]).toContain("maker_mismatch");
    expect(lines[0]).not.toContain(other.slice(2));
    expect(m.context.venue.openOrders(OTHER_WALLET.address.toLowerCase() as typeof WALLET)).toEqual([]);
    const db = openJournalDb(journal.path);
    try {
      expect(db.prepare("SELECT count(*) FROM runs").pluck().get()).toBe(0n);
    } finally {
      db.close();
    }
  });
});
