import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  defaultJournalPath,
  paperJournalSettings,
  runJournalSettings,
} from "../../../src/app/journal-settings.js";
import { loadConfig } from "../../../src/config/load.js";

const config = (env: Record<string, string> = {}) => loadConfig({ env });

describe("where the journal lives", () => {
  it("mm run: the user's data folder by default, journal.path resolved against the cwd, none when disabled", () => {
    expect(defaultJournalPath({ HOME: "/home/mm" })).toBe("/home/mm/.local/share/mm/journal.sqlite");
    expect(defaultJournalPath({ HOME: "/home/mm", XDG_DATA_HOME: "/data" })).toBe("/data/mm/journal.sqlite");
    expect(defaultJournalPath({ HOME: "/home/mm", XDG_DATA_HOME: "relative" })).toBe(
      "/home/mm/.local/share/mm/journal.sqlite",
    );
    expect(runJournalSettings(config(), { env: { HOME: "/home/mm" }, cwd: "/srv" })).toEqual({
      path: "/home/mm/.local/share/mm/journal.sqlite",
      snapshotIntervalMs: 60_000,
      sync: "normal",
      retentionDays: 7,
    });
    const set = config({
      MM_JOURNAL_PATH: "var/j.sqlite",
      MM_JOURNAL_SYNCHRONOUS: "full",
      MM_JOURNAL_SNAPSHOT_INTERVAL_MS: "0",
      MM_JOURNAL_RETENTION_DAYS: "0",
    });
    expect(runJournalSettings(set, { env: {}, cwd: "/srv" })).toEqual({
      path: "/srv/var/j.sqlite",
      snapshotIntervalMs: 0,
      sync: "full",
      retentionDays: 0,
    });
    expect(
      runJournalSettings(config({ MM_JOURNAL_ENABLED: "false" }), { env: {}, cwd: "/srv" }),
    ).toBeUndefined();
  });

  it("mm paper: a fresh private temp file per run unless journal.path is set", () => {
    const a = paperJournalSettings(config(), "/srv");
    const b = paperJournalSettings(config(), "/srv");
    try {
      expect(a?.path).toMatch(new RegExp(`^${join(tmpdir(), "mm-paper-")}[^/]+/journal\\.sqlite$`));
      expect(a?.path).not.toBe(b?.path);
    } finally {
      for (const s of [a, b]) if (s !== undefined) rmSync(dirname(s.path), { recursive: true, force: true });
    }
    expect(paperJournalSettings(config({ MM_JOURNAL_PATH: "/x/j.sqlite" }), "/srv")?.path).toBe(
      "/x/j.sqlite",
    );
    expect(paperJournalSettings(config({ MM_JOURNAL_ENABLED: "false" }), "/srv")).toBeUndefined();
  });

  it("refuses a bad journal setting at load, naming it", () => {
    expect(() => config({ MM_JOURNAL_ENABLED: "yes" })).toThrow(/journal\.enabled/);
    expect(() => config({ MM_JOURNAL_SNAPSHOT_INTERVAL_MS: "-1" })).toThrow(/journal\.snapshotIntervalMs/);
    expect(() => config({ MM_JOURNAL_RETENTION_DAYS: "-1" })).toThrow(/journal\.retentionDays/);
    expect(() => config({ MM_JOURNAL_RETENTION_DAYS: "1.5" })).toThrow(/journal\.retentionDays/);
  });
});
