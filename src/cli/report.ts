import { resolve } from "node:path";
import { runJournalSettings } from "../app/journal-settings.js";
import { JournalError } from "../journal/errors.js";
import { type JournalReader, openJournalReader } from "../journal/open-read.js";
import { buildReport } from "../journal/report.js";
import { reportJson, reportText } from "../journal/report-format.js";
import { type CliIo, type Command, EXIT, flagsOrHelp, inputError, UsageError } from "./command.js";
import { CONFIG_OPTION, CONFIG_OPTION_HELP, loadConfigFromFlags } from "./config-option.js";

const OPTIONS = {
  ...CONFIG_OPTION,
  since: { type: "string", short: "s" },
  journal: { type: "string", short: "j" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

const HELP = [
  "Usage: mm report [--since DATE] [--journal PATH] [--config FILE ...] [--json]",
  "",
  "Prints PnL, fees and volume by UTC day and market from the journal that mm run and mm paper keep:",
  "fills, shares traded, notional, realised PnL (average cost, before fees), fees and net PnL per day",
  "and market, each market over the period and the total; then the open positions (each token's last",
  "journaled account) with their unrealised PnL at the last journaled mark; then the total PnL: net PnL",
  "+ that unrealised PnL. Every amount is exact (no rounding); fills whose fee has not settled yet (a",
  "run's last ones, read by the next start) are counted in a note, as their fees are in no figure.",
  "It can read the journal while a daemon writes it, and on read-only media: it never opens the journal",
  "for writing. It needs no secret: key files and keys the configuration names are neither read nor",
  "checked.",
  "",
  "Options:",
  "  -s, --since DATE    Only fills and PnL from DATE on: YYYY-MM-DD (midnight UTC) or an ISO-8601 time",
  "                      with its zone (2025-06-01T12:00:00Z, 2025-06-01T14:00:00+02:00).",
  "  -j, --journal PATH  The journal file; default journal.path of the configuration, else the default",
  "                      data file ($XDG_DATA_HOME/mm/journal.sqlite or ~/.local/share/mm/journal.sqlite).",
  CONFIG_OPTION_HELP,
  "      --json          One JSON document instead of tables (amounts as decimal strings).",
  "  -h, --help          Show this help.",
  "",
  "Exit codes: 0 printed; 2 bad usage or configuration, or no readable journal at the path (none, one",
  "damaged — its WAL would drop commits — or one written by a newer mm); 1 unexpected.",
  "",
].join("\n");

/** `mm report`: PnL, fees and volume by market and day from the journal. */
const NOT_FOUND_HINT =
  "mm report: mm run keeps its journal at journal.path (else the default data file, see --help); " +
  "mm paper a new one per run, named in its last log line: pass it with --journal PATH\n";

export const reportCommand: Command = {
  name: "report",
  summary: "PnL, fees and volume by market and day from the journal",
  help: HELP,
  async run(argv: readonly string[], io: CliIo): Promise<number> {
    const values = flagsOrHelp(argv, OPTIONS, HELP, io);
    if (values === undefined) return EXIT.ok;
    const sinceMs = values.since === undefined ? undefined : parseSince(values.since);
    const path =
      values.journal === undefined ? configuredJournal(values.config, io) : resolve(io.cwd, values.journal);
    let reader: JournalReader;
    try {
      reader = await openJournalReader(path, {
        warn: (_f, message) => io.stderr(`mm report: warning: ${message}\n`),
      });
    } catch (err) {
      if (!(err instanceof JournalError)) throw err;
      const code = inputError("report", err, io);
      // A newcomer's first report usually follows `npm start`, whose journal is in a temp folder.
      if (err.code === "journal_not_found") io.stderr(NOT_FOUND_HINT);
      return code;
    }
    try {
      const report = buildReport(reader.db, sinceMs === undefined ? {} : { sinceMs });
      io.stdout(values.json === true ? reportJson(report, path) : reportText(report, path));
      return EXIT.ok;
    } finally {
      reader.close();
    }
  },
};

function configuredJournal(files: readonly string[] | undefined, io: CliIo): string {
  // A report reads the journal only: the daemon's key files (0600, maybe another user's, maybe on
  // another machine) are neither read nor checked, and the report never holds the wallet key.
  const settings = runJournalSettings(loadConfigFromFlags(files, io, { secrets: false }), io);
  if (settings === undefined) {
    throw new UsageError("journal.enabled is false in this configuration: name the file with --journal PATH");
  }
  return settings.path;
}

/**
 * `--since`: a UTC day (YYYY-MM-DD) or an ISO-8601 time with its zone, as epoch ms. A time without
 * a zone is refused rather than read in the machine's local zone.
 * @example parseSince("2025-06-01") // 1748736000000
 */
export function parseSince(text: string): number {
  const day = /^\d{4}-\d{2}-\d{2}$/.test(text);
  const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(text);
  const ms = day ? Date.parse(`${text}T00:00:00Z`) : iso ? Date.parse(text) : Number.NaN;
  // Date.parse reads 2025-02-30 as 2025-03-02 in both forms: a round trip of the date part (before
  // any zone offset moves it) catches impossible days.
  const ymd = text.slice(0, 10);
  const dayMs = Date.parse(`${ymd}T00:00:00Z`);
  const dayOk = Number.isFinite(dayMs) && new Date(dayMs).toISOString().slice(0, 10) === ymd;
  if (!Number.isFinite(ms) || !dayOk) {
    throw new UsageError(
      `--since: expected YYYY-MM-DD or an ISO-8601 time with a zone, got ${JSON.stringify(text)}`,
    );
  }
  return ms;
}
