import { mkdtempSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import type { MmConfig } from "../config/types.js";
import type { JournalSync } from "../journal/open.js";

/** Where and how a daemon journals; undefined settings = no journal. */
export interface JournalSettings {
  readonly path: string;
  readonly snapshotIntervalMs: number;
  readonly sync: JournalSync;
  /** journal.retentionDays: order detail older than this is pruned; 0 or absent = keep everything. */
  readonly retentionDays?: number;
}

/**
 * The default journal file of `mm run` (journal.path empty): `$XDG_DATA_HOME/mm/journal.sqlite`,
 * else `~/.local/share/mm/journal.sqlite` — the user's data folder, writable wherever mm runs as an
 * unprivileged user (in the Docker image: /home/node/.local/share/mm; mount a volume there to keep
 * it across containers).
 * @example defaultJournalPath({ HOME: "/home/mm" }) // "/home/mm/.local/share/mm/journal.sqlite"
 */
export function defaultJournalPath(env: NodeJS.ProcessEnv): string {
  const xdg = env.XDG_DATA_HOME;
  const base = xdg !== undefined && isAbsolute(xdg) ? xdg : join(env.HOME ?? homedir(), ".local", "share");
  return join(base, "mm", "journal.sqlite");
}

/**
 * The journal of `mm run` (and the file `mm report` reads by default): journal.path resolved against
 * the working directory, or the default data file; undefined when journal.enabled is false.
 */
export function runJournalSettings(
  config: MmConfig,
  where: { env: NodeJS.ProcessEnv; cwd: string },
): JournalSettings | undefined {
  if (!config.journal.enabled) return undefined;
  const path =
    config.journal.path === "" ? defaultJournalPath(where.env) : resolve(where.cwd, config.journal.path);
  return {
    path,
    snapshotIntervalMs: config.journal.snapshotIntervalMs,
    sync: config.journal.synchronous,
    retentionDays: config.journal.retentionDays,
  };
}

/**
 * The journal of paper mode: `where.path` (`mm paper --journal FILE`) when given, else a fresh file in
 * a new private temp folder (`<tmp>/mm-paper-XXXXXX/journal.sqlite`). Each paper run starts a fresh
 * mock exchange, so its history belongs to that run only: it must not land in (or restore from) the
 * live journal. So config.journal.path is never used, whichever layer set it: a --config file (`mm
 * paper --config live.json` layers the live configuration) or MM_JOURNAL_PATH (an operator who sourced
 * the live env file) names the live journal, and `mm report` would then add paper fills to live PnL.
 * Only the paper-specific flag names a file. The file stays after the run for
 * `mm report --journal <path>`; the path is logged at start.
 */
export function paperJournalSettings(
  config: MmConfig,
  where: { cwd: string; path?: string },
): JournalSettings | undefined {
  if (!config.journal.enabled) return undefined;
  const path =
    where.path !== undefined && where.path !== ""
      ? resolve(where.cwd, where.path)
      : join(mkdtempSync(join(tmpdir(), "mm-paper-")), "journal.sqlite");
  return {
    path,
    snapshotIntervalMs: config.journal.snapshotIntervalMs,
    sync: config.journal.synchronous,
    retentionDays: config.journal.retentionDays,
  };
}
