import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";
import type { JournalSettings } from "../../../src/app/journal-settings.js";
import { type DaemonSlots, endDaemonSlots } from "../daemon/support.js";

/** The mock, the daemon and the private temp folder (its journal files) a journal test started. */
export interface JournalDaemonSlots extends DaemonSlots {
  dir: string | undefined;
}

/**
 * Registers an afterEach that runs `first` (what the test holds that the daemon's stop must not wait
 * on, e.g. another connection's lock on the journal), stops the daemon, closes the mock and removes the
 * temp folder; returns the slots each test fills.
 * @example const slots = journalDaemonSlots(); const settings = journalIn(slots, "mm-journal-x-");
 */
export function journalDaemonSlots(first?: () => void): JournalDaemonSlots {
  const slots: JournalDaemonSlots = { mock: undefined, daemon: undefined, dir: undefined };
  afterEach(async () => {
    first?.();
    await endDaemonSlots(slots);
    if (slots.dir !== undefined) rmSync(slots.dir, { recursive: true, force: true });
    slots.dir = undefined;
  });
  return slots;
}

/**
 * A journal in a new private temp folder the slots remove after the test (`slots.dir`): the
 * daemon's settings for it, with the default snapshot interval (60 s) and synchronous mode.
 * @example const settings = journalIn(slots, "mm-journal-x-"); await startDaemon(config, { …, journal: settings });
 */
export function journalIn(slots: JournalDaemonSlots, prefix: string): JournalSettings {
  slots.dir = mkdtempSync(join(tmpdir(), prefix));
  return { path: join(slots.dir, "journal.sqlite"), snapshotIntervalMs: 60_000, sync: "normal" };
}
