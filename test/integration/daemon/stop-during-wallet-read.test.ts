import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { startDaemon } from "../../../src/app/daemon.js";
import { runUntilStopped } from "../../../src/app/lifecycle.js";
import { FRONTED, frontedMocks } from "./rest-front.js";
import { daemonConfig, manualRequests, memoryLogger, tempJournals, waitFor } from "./support.js";

/*
 * A stop requested during the start's wallet read (GET /api/me/withdrawals, the signing key's check)
 * went on: the check gave up waiting, the journal opened with a new, empty run, the gateways
 * connected, and only then was the stop seen; the same request one round trip earlier, during the
 * market reads, opened nothing. It now ends the start the same way: exit 0, nothing opened.
 */

const SHUTDOWN_MS = 4_000;
const fronted = frontedMocks();
const newJournal = tempJournals("mm-stop-wallet-read-");

describe("daemon: a stop requested while the key's wallet is read at start", () => {
  it("an unanswered GET /api/me/withdrawals: exit 0 at once, the read cut, no journal run, no gateway", async () => {
    const held: { closed: boolean }[] = [];
    const { m, url } = await fronted((req, res) => {
      if (req.path !== "/api/me/withdrawals") return false;
      const entry = { closed: false };
      res.socket?.on("close", () => {
        entry.closed = true;
      });
      held.push(entry);
      return true;
    });
    const journal = newJournal();
    const config = daemonConfig(m, [FRONTED.slug], {
      MM_EXCHANGE_BASE_URL: url,
      MM_SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_MS),
    });
    const { logger } = memoryLogger();
    const r = manualRequests();
    const fired = waitFor(() => held.length > 0, 10_000, "GET /api/me/withdrawals").then(() =>
      r.fire("SIGTERM"),
    );
    const notes: string[] = [];
    const outcome = await runUntilStopped(
      (onStopping, stopRequested) => startDaemon(config, { logger, onStopping, stopRequested, journal }),
      { shutdownTimeoutMs: SHUTDOWN_MS, requests: r.requests, notify: (l) => notes.push(l) },
    );
    await fired;
    expect(outcome).toEqual({ exitCode: 0, reason: "SIGTERM" });
    expect(notes.some((n) => n.includes("overran"))).toBe(false);
    // The read was cut (the start's catch closes the client), not left to its timeout.
    await waitFor(() => held.every((h) => h.closed), 2_000, "the wallet read's socket to be closed");
    // Nothing was opened: it used to journal an empty run and connect the gateways first.
    expect(existsSync(journal.path)).toBe(false);
    expect(m.admin.state().openSockets).toBe(0);
  });
});
