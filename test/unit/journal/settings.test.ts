import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
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

  it("mm paper: a fresh private temp file per run unless --journal names one", () => {
    const a = paperJournalSettings(config(), { cwd: "/srv" });
    const b = paperJournalSettings(config(), { cwd: "/srv" });
    try {
      expect(a?.path).toMatch(new RegExp(`^${join(tmpdir(), "mm-paper-")}[^/]+/journal\\.sqlite$`));
      expect(a?.path).not.toBe(b?.path);
    } finally {
      for (const s of [a, b]) if (s !== undefined) rmSync(dirname(s.path), { recursive: true, force: true });
    }
    expect(paperJournalSettings(config(), { cwd: "/srv", path: "x/j.sqlite" })?.path).toBe("/srv/x/j.sqlite");
    expect(
      paperJournalSettings(config({ MM_JOURNAL_ENABLED: "false" }), { cwd: "/srv", path: "x/j.sqlite" }),
    ).toBeUndefined();
  });

  it("mm paper: journal.path of a --config file (the live journal's) is not used: paper fills never land in it", () => {
    const dir = mkdtempSync(join(tmpdir(), "mm-settings-test-"));
    try {
      const file = join(dir, "live.json");
      writeFileSync(file, JSON.stringify({ journal: { path: "/var/lib/mm/live.sqlite" } }));
      const live = loadConfig({ files: [file], env: {} });
      const paper = paperJournalSettings(live, { cwd: "/srv" });
      if (paper !== undefined) rmSync(dirname(paper.path), { recursive: true, force: true });
      expect(paper?.path).toMatch(new RegExp(`^${join(tmpdir(), "mm-paper-")}[^/]+/journal\\.sqlite$`));
      // Named with the paper-specific flag, it is used: an explicit choice, not a layered live file's.
      const kept = paperJournalSettings(live, { cwd: "/srv", path: "/tmp/paper-kept.sqlite" });
      expect(kept?.path).toBe("/tmp/paper-kept.sqlite");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("mm paper: MM_JOURNAL_PATH (a sourced live env file's) is not used either", () => {
    const env = { MM_JOURNAL_PATH: "/var/lib/mm/live.sqlite" };
    const paper = paperJournalSettings(config(env), { cwd: "/srv" });
    if (paper !== undefined) rmSync(dirname(paper.path), { recursive: true, force: true });
    expect(paper?.path).toMatch(new RegExp(`^${join(tmpdir(), "mm-paper-")}[^/]+/journal\\.sqlite$`));
  });

  it("refuses a bad journal setting at load, naming it", () => {
    expect(() => config({ MM_JOURNAL_ENABLED: "yes" })).toThrow(/journal\.enabled/);
    expect(() => config({ MM_JOURNAL_SNAPSHOT_INTERVAL_MS: "-1" })).toThrow(/journal\.snapshotIntervalMs/);
    expect(() => config({ MM_JOURNAL_RETENTION_DAYS: "-1" })).toThrow(/journal\.retentionDays/);
    expect(() => config({ MM_JOURNAL_RETENTION_DAYS: "1.5" })).toThrow(/journal\.retentionDays/);
  });
});
