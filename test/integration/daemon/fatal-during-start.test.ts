import { afterEach, describe, expect, it } from "vitest";
import { startDaemon } from "../../../src/app/daemon.js";
import type { JournalSettings } from "../../../src/app/journal-settings.js";
import type { StopRequests } from "../../../src/app/lifecycle.js";
import { DAEMON_EXIT } from "../../../src/app/outcome.js";
import { superviseDaemon } from "../../../src/app/supervise.js";
import type { MockExchange } from "../../../src/mock/mock-exchange.js";
import type { CollectingStream } from "../../support/collecting-stream.js";
import {
  daemonConfig,
  journalRuns,
  KEY_ID,
  logged,
  market,
  memoryLogger,
  seedMarket,
  startMock,
  tempJournals,
} from "./support.js";

const ARG = market("arg-vs-fra-final-arg-win");
const SHUTDOWN_MS = 8_000;

let mock: MockExchange | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});
const newJournal = tempJournals("mm-fatal-start-");

/** No stop request ever comes: the run ends on its own. */
const noRequests: StopRequests = () => () => undefined;

interface SupervisedStart {
  readonly code: number;
  readonly lines: string[];
  readonly sink: CollectingStream;
  readonly journal: JournalSettings;
}

/** `mm run` under supervise against the mock, journal in a private folder; `meanwhile` injects the fault. */
async function supervisedStart(meanwhile: (m: MockExchange, sink: CollectingStream) => Promise<unknown>) {
  const m = mock as MockExchange;
  const journal = newJournal();
  const config = daemonConfig(m, [ARG.slug], { MM_SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_MS) });
  const { logger, sink } = memoryLogger();
  const lines: string[] = [];
  const injected = meanwhile(m, sink);
  const code = await superviseDaemon(
    "run",
    (onStopping, stopRequested) => startDaemon(config, { logger, onStopping, stopRequested, journal }),
    SHUTDOWN_MS,
    (text) => lines.push(text),
    { requests: noRequests },
  );
  await injected;
  return { code, lines, sink, journal } satisfies SupervisedStart;
}

/** What every refusal during the start must leave: exit 3 with its line, the stop ended and journaled. */
function expectRefusedAtStart(run: SupervisedStart, code: string): void {
  expect(run.code).toBe(DAEMON_EXIT.fatal);
  expect(run.lines.at(-1), run.lines.join("")).toBe(
    `mm run: the exchange refused the API key (${code}) at start-up; nothing was quoted; exit 3 (code ${code})\n`,
  );
  const msgs = run.sink.records().map((r) => String(r.msg));
  // The run's stop ended before the outcome was known (it used to run on after it, in the background).
  expect(msgs).toContain(`stopped (${code})`);
  // It used to read through the client the failed start had closed under it.
  expect(run.sink.text()).not.toContain("the client is closed");
  // It used to leave the run row without its stop: the next start would read it as a crash.
  expect(journalRuns(run.journal)).toEqual([
    { stopped_at_ms: expect.any(BigInt), stop_reason: code, open_at_stop: expect.any(BigInt) },
  ]);
}

/*
 * A refusal while the daemon starts does two things at once: it begins the run's own stop (engine
 * stop, cancels, the stop journaled), and it fails the start. The start's clean-up must not close
 * the journal, gateways and HTTP client under that stop.
 */
describe("daemon: the key refused while the daemon starts", () => {
  it("4401 while the gateways subscribe: exit 3, the run's stop ended and journaled", async () => {
    mock = await startMock();
    seedMarket(mock, ARG, "0.50", "0.60");
    const run = await supervisedStart(async (m, sink) => {
      // /ws/user's subscribe acks wait 2 s: the key is revoked (its sockets closed 4401) meanwhile.
      m.admin.setWsLatency(2_000);
      await logged(sink, "gateway: connected");
      m.admin.revokeKey(KEY_ID);
    });
    expect(run.sink.text()).toContain("closed /ws/user for good (api_key_revoked)");
    expectRefusedAtStart(run, "api_key_revoked");
  });

  it("REST 401 during the engine's start-up reads: exit 3, the run's stop ended and journaled", async () => {
    mock = await startMock();
    seedMarket(mock, ARG, "0.50", "0.60");
    const run = await supervisedStart(async (m, sink) => {
      // Refused at the REST door only (the sockets stay open), from the first request the mock handles
      // once the gateways have subscribed: the engine's start-up reads. Decided as each request is
      // handled, not by a poll of the log: a poll could come after every start-up read was answered.
      const key = m.context.directory.keys.get(KEY_ID);
      if (key === undefined) throw new Error("no key");
      const subscribed = () => sink.records().some((r) => String(r.msg).startsWith("subscribed"));
      let revoked = false;
      Object.defineProperty(key, "revoked", {
        get: () => {
          revoked ||= subscribed();
          return revoked;
        },
        set: (v: boolean) => {
          revoked = v;
        },
        configurable: true,
      });
    });
    expect(run.sink.text()).toContain("refused the API key (api_key_revoked on");
    expectRefusedAtStart(run, "api_key_revoked");
  });
});
