/**
 * The fault suite (issue 8): one test per fault scenario, each against its own mock exchange with
 * fault injection (/__admin/* over HTTP) and the real daemon (in process, or `mm run` as a child
 * process), over real sockets on 127.0.0.1. Each ends with the invariants of invariants.ts; the
 * table of scenarios and outcomes is printed once all have run.
 *
 * The scenarios run concurrently (vitest's maxConcurrency, 5 at a time): each waits mostly on
 * sockets and timers, so the folder takes about as long as its slowest scenario plus a couple of
 * waves, not the sum.
 */
import { afterAll, describe, it } from "vitest";
import type { FaultScenario } from "./scenario.js";
import { keyRevoked, partnerSuspended } from "./scenarios/account.js";
import { bookRefused, bookSeqGap, marketSocketDrop, silentFeed, userSocketDrop } from "./scenarios/feeds.js";
import { cancelStorm, hungPlacement, rateLimitStorm, serverErrorStorm } from "./scenarios/http.js";
import {
  marketPaused,
  marketResolved,
  marketResolvedSilently,
  marketStatusChange,
  platformFrozen,
} from "./scenarios/market.js";
import { sigkillRestart } from "./scenarios/process.js";
import { marketPausedSilently, marketPausedSilentlyStaticBook } from "./scenarios/silent-pause.js";
import { type ScenarioRow, ScenarioTable } from "./table.js";

/** The table's order. */
const SCENARIOS: readonly FaultScenario[] = [
  marketSocketDrop,
  userSocketDrop,
  bookSeqGap,
  silentFeed,
  bookRefused,
  rateLimitStorm,
  serverErrorStorm,
  cancelStorm,
  hungPlacement,
  keyRevoked,
  partnerSuspended,
  marketPaused,
  marketPausedSilently,
  marketPausedSilentlyStaticBook,
  marketResolved,
  marketResolvedSilently,
  marketStatusChange,
  platformFrozen,
  sigkillRestart,
];

/** Started first: the two that spawn `mm run` children take longest. */
const LONG: ReadonlySet<FaultScenario> = new Set([sigkillRestart, keyRevoked]);

const table = new ScenarioTable();
const rows = new Map<FaultScenario, ScenarioRow>(SCENARIOS.map((s) => [s, table.row(s.name, s.fault)]));

afterAll(() => {
  console.log(table.render());
});

describe.concurrent("fault suite", () => {
  const runOrder = [...SCENARIOS.filter((s) => LONG.has(s)), ...SCENARIOS.filter((s) => !LONG.has(s))];
  for (const s of runOrder) {
    const row = rows.get(s) as ScenarioRow;
    it(
      s.name,
      async () => {
        row.result = "FAIL";
        await s.run(row);
        row.result = "pass";
      },
      s.timeoutMs ?? 30_000,
    );
  }
});
