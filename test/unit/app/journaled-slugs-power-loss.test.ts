import { writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { openDaemonJournal } from "../../../src/app/journal.js";
import { journaledSlugs } from "../../../src/app/journaled-slugs.js";
import { SimClock } from "../../../src/core/sim-clock.js";
import { createLogger } from "../../../src/observability/logger.js";
import { collectingStream } from "../../support/collecting-stream.js";
import { HEADER, restartedJournal } from "../journal/restarted-wal.js";
import { ACCOUNT } from "../journal/support.js";
import { settingsOf } from "./slug-lookup.js";

/*
 * Review r21 (rslug) of 673e629. At start, a configured slug that 404s has journaledSlugs open the
 * journal (openJournalDb, `warn: () => undefined`) before the run's own open. Its comment says "the
 * run's own open follows at once: it ... says what a power loss rolled back". But that first open
 * already accepted the torn WAL silently AND checkpointed it (wal_checkpoint(TRUNCATE): the roll-back
 * made final), so the run's open finds a clean WAL and says nothing: the operator never learns that
 * the last commits before the power loss (fills, placements' intents) were rolled back.
 */
describe("a start whose configured slug 404s, on a journal after a power loss", () => {
  it("still warns the daemon's log of what the power loss rolled back", () => {
    const { path, previous, wal, frameSize, commits } = restartedJournal();
    const lost = (commits[2] as number) + 1;
    const at = HEADER + (lost - 1) * frameSize;
    previous.copy(wal, at, at, at + frameSize);
    writeFileSync(`${path}-wal`, wal);
    const settings = settingsOf(path);

    // The start's market selection: engine.markets names a slug the exchange 404s.
    expect(journaledSlugs(settings, ACCOUNT)?.("old-title")).toBeUndefined();

    // Then the run's own open, as startDaemon does.
    const log = collectingStream();
    openDaemonJournal(settings, {
      account: ACCOUNT,
      session: "s-after",
      tokens: [],
      clock: new SimClock(5_000),
      logger: createLogger({ level: "info", pretty: false, destination: log }),
    }).close();
    const warned = log.records().filter((r) => r.level === 40 || r.level === "warn");
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatchObject({ brokenFrame: lost, wal: `${path}-wal` });
  });
});
