import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { journalAccount, lockDaemonJournal } from "../../../src/app/journal.js";
import type { JournalSettings } from "../../../src/app/journal-settings.js";
import { loadConfig } from "../../../src/config/load.js";
import { SimClock } from "../../../src/core/sim-clock.js";
import { API_KEY, PRIVATE_KEY } from "../../integration/daemon/support.js";

/**
 * The journal's account (what a run restores from: PnL, its order ids, a tripped kill switch, the
 * carried drawdown; and what the run lock guards) is the configured exchange.baseUrl string as
 * written, only a trailing slash trimmed. The same exchange written another way — the host's case,
 * the scheme's case, the default port spelt out — is "first run of this account": a tripped kill
 * switch is forgotten and quoting resumes, PnL restarts from 0, mm report lists the old account's
 * positions beside the new one's (counted twice in the total), and a second daemon on the same wallet
 * and journal is not refused, so its start-up reconcile cancels the live daemon's quotes.
 * Seen by hand: `mm run` with a tripped switch, restarted with MM_EXCHANGE_BASE_URL=HTTP://127.0.0.1:…
 * logged "journal …: first run of this account" and quoted.
 */
const MAKER = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266";
const SAME_EXCHANGE = [
  "https://api.exchange.example",
  "https://API.exchange.example",
  "https://api.exchange.example:443",
  "HTTPS://api.exchange.example/",
];

function loadedBaseUrl(baseUrl: string): string {
  return loadConfig({
    env: {
      MM_EXCHANGE_BASE_URL: baseUrl,
      MM_EXCHANGE_WS_URL: "wss://ws.exchange.example",
      MM_API_KEY: API_KEY,
      MM_PRIVATE_KEY: PRIVATE_KEY,
      MM_ENGINE_MARKETS: JSON.stringify(["some-market"]),
    },
  }).exchange.baseUrl;
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("the journal account of one exchange written two ways", () => {
  it("is one account whichever way exchange.baseUrl spells the same origin", () => {
    const accounts = SAME_EXCHANGE.map((u) => journalAccount(loadedBaseUrl(u), MAKER));
    expect(new Set(accounts).size).toBe(1);
  });

  it("the run lock refuses a second daemon of the wallet whose baseUrl spells the exchange otherwise", () => {
    const dir = mkdtempSync(join(tmpdir(), "mm-walkops-lock-"));
    dirs.push(dir);
    const journal: JournalSettings = {
      path: join(dir, "journal.sqlite"),
      snapshotIntervalMs: 60_000,
      sync: "normal",
    };
    const clock = new SimClock(1_700_000_000_000);
    const first = lockDaemonJournal(journal, {
      baseUrl: loadedBaseUrl("https://api.exchange.example"),
      maker: MAKER,
      session: "live",
      clock,
    });
    try {
      expect(() => {
        const second = lockDaemonJournal(journal, {
          baseUrl: loadedBaseUrl("https://API.exchange.example:443"),
          maker: MAKER,
          session: "second",
          clock,
        });
        second.release();
      }).toThrow();
    } finally {
      first.release();
    }
  });
});
