import { rmSync } from "node:fs";
import { afterEach } from "vitest";
import { type DaemonSlots, endDaemonSlots } from "../daemon/support.js";

/** The mock, the daemon and the private temp folder (its journal files) a journal test started. */
export interface JournalDaemonSlots extends DaemonSlots {
  dir: string | undefined;
}

/**
 * Registers an afterEach that runs `first` (what the test holds that the daemon's stop must not wait
 * on, e.g. another connection's lock on the journal), stops the daemon, closes the mock and removes the
 * temp folder; returns the slots each test fills.
 * @example const slots = journalDaemonSlots(); slots.dir = mkdtempSync(join(tmpdir(), "mm-journal-x-"));
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
