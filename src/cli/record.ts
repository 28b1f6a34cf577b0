import { resolve } from "node:path";
import type { Writable } from "node:stream";
import { requireApiKey, secretValues } from "../config/secrets.js";
import type { Clock } from "../core/clock.js";
import {
  DEFAULT_RECORD_CHANNELS,
  RECORDABLE_CHANNELS,
  type RecordableChannel,
  type RecordSummary,
  record,
} from "../gateway/record/recorder.js";
import { createLogger } from "../observability/logger.js";
import { type CliIo, type Command, EXIT, flagsOrHelp, UsageError } from "./command.js";
import { CONFIG_OPTION, CONFIG_OPTION_HELP, loadConfigFromFlags } from "./config-option.js";

const OPTIONS = {
  ...CONFIG_OPTION,
  tokens: { type: "string", short: "t", multiple: true },
  out: { type: "string", short: "o" },
  "rotate-mb": { type: "string" },
  "rotate-minutes": { type: "string" },
  channels: { type: "string" },
  "buffer-mb": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

const DEFAULT_ROTATE_MB = 100;
const DEFAULT_ROTATE_MINUTES = 60;
const DEFAULT_BUFFER_MB = 64;

const HELP = [
  "Usage: mm record --tokens ID[,ID...] --out DIR [--config FILE ...] [--rotate-mb N]",
  "                 [--rotate-minutes N] [--channels LIST] [--buffer-mb N]",
  "",
  "Records /ws/market for the given tokens into DIR as rotating gzip JSON Lines files",
  '(market-<UTC start>-<seq>.jsonl.gz), one {"recvTs": ms, "frame": <frame as received>} per line:',
  "the input of `mm backtest`. Gaps, crossed books and reconnects trigger get_book_snapshot, so the",
  "files carry the snapshots a replay needs. Stops on SIGINT, SIGTERM or SIGHUP: the current file is flushed",
  "and closed, a JSON summary is printed, exit code 0. Every second the frames so far are flushed",
  "into the file: a recorder killed outright (SIGKILL, out of memory) loses about the last second,",
  "and `mm backtest` replays its last, unfinished file up to its last complete line.",
  "recvTs never goes back: if the wall clock steps back, frames keep the last stamp until it",
  "catches up (counted in the summary's recvTsClamped; clockStepBackMs is the largest step).",
  "",
  "Options:",
  "  -t, --tokens IDS        Token ids (decimal), comma-separated; repeatable. Required.",
  "  -o, --out DIR           Output directory (created if missing). Required.",
  CONFIG_OPTION_HELP,
  `      --rotate-mb N       New file once the current one holds N MB compressed (default ${DEFAULT_ROTATE_MB}).`,
  `      --rotate-minutes N  New file once the current one is N minutes old (default ${DEFAULT_ROTATE_MINUTES}).`,
  `      --channels LIST     Token channels to record (default ${DEFAULT_RECORD_CHANNELS.join(",")};`,
  `                          any of ${RECORDABLE_CHANNELS.join(", ")}).`,
  `      --buffer-mb N       Frames waiting for a slow disk, MiB of JSON, before the recording stops`,
  `                          with an error (default ${DEFAULT_BUFFER_MB}); nothing is dropped silently.`,
  "  -h, --help              Show this help.",
  "",
  "The gateway URL is exchange.wsUrl (MM_EXCHANGE_WS_URL); the API key comes from MM_API_KEY or",
  "secrets.apiKeyFile. Exit code 1 when the gateway closes for good (revoked, expired or suspended",
  "key: the files written so far are complete) or when writing fails (disk full, or a disk that",
  "fell --buffer-mb behind: the frames received before are written first), 2 on bad usage or",
  "configuration.",
  "",
].join("\n");

/** What a test (or an embedding program) injects instead of process signals and the wall clock. */
export interface RecordCommandDeps {
  /** Stops the recording; default: the first SIGINT, SIGTERM or SIGHUP. */
  readonly signal?: AbortSignal;
  readonly clock?: Clock;
  /** Where a file's compressed bytes go; default the file (tests pass a disk that stalls). */
  readonly openSink?: (path: string) => Writable;
}

/**
 * The `mm record` command. `deps.signal` replaces the process signals (tests abort it).
 * @example await createRecordCommand({ signal: ac.signal }).run(["--tokens", id, "--out", dir], io);
 */
export function createRecordCommand(deps: RecordCommandDeps = {}): Command {
  return {
    name: "record",
    summary: "Record /ws/market frames of some tokens into rotating gzip JSONL files (backtest input)",
    help: HELP,
    async run(argv: readonly string[], io: CliIo): Promise<number> {
      const values = flagsOrHelp(argv, OPTIONS, HELP, io);
      if (values === undefined) return EXIT.ok;
      const tokens = parseTokens(values.tokens);
      if (values.out === undefined || values.out === "") throw new UsageError("--out DIR is required");
      const outDir = resolve(io.cwd, values.out);
      const maxBytes = positive("--rotate-mb", values["rotate-mb"], DEFAULT_ROTATE_MB) * 1_000_000;
      const maxAgeMs =
        positive("--rotate-minutes", values["rotate-minutes"], DEFAULT_ROTATE_MINUTES) * 60_000;
      const channels = parseChannels(values.channels);
      const maxPendingBytes = Math.round(
        positive("--buffer-mb", values["buffer-mb"], DEFAULT_BUFFER_MB) * 1_048_576,
      );
      const config = loadConfigFromFlags(values.config, io);
      const apiKey = requireApiKey(config);
      const logger = createLogger({
        level: config.log.level,
        pretty: false,
        secrets: secretValues(config),
        destination: { write: (line: string) => io.stderr(line) },
        base: { cmd: "record" },
      });
      const { signal, release } = stopSignal(deps.signal);
      let summary: RecordSummary;
      try {
        summary = await record({
          url: config.exchange.wsUrl,
          apiKey: apiKey.value,
          userWallet:
            config.exchange.partnerKind === "multi_wallet"
              ? (config.exchange.userWallet ?? undefined)
              : undefined,
          tokens,
          channels,
          outDir,
          rotate: { maxBytes, maxAgeMs },
          maxPendingBytes,
          signal,
          logger,
          ...(deps.clock === undefined ? {} : { clock: deps.clock }),
          ...(deps.openSink === undefined ? {} : { openSink: deps.openSink }),
          onSubscribed: (accepted, rejected) =>
            io.stderr(
              `mm record: recording ${tokens.length} token(s) on ${channels.join(", ")} into ${outDir}` +
                ` (${accepted} subscription id(s) accepted, ${rejected.length} rejection(s)); Ctrl-C stops\n`,
            ),
        });
      } finally {
        release();
      }
      const { fatal, writeError, ...rest } = summary;
      io.stdout(`${JSON.stringify({ outDir, ...rest, fatal: fatal?.code ?? null })}\n`);
      if (fatal !== undefined) {
        io.stderr(`mm record: the gateway closed the connection for good: ${fatal.code}\n`);
        return EXIT.unexpected;
      }
      if (writeError !== undefined) {
        io.stderr(`mm record: writing failed: ${(writeError as Error).message}\n`);
        return EXIT.unexpected;
      }
      return EXIT.ok;
    },
  };
}

/** `mm record`, stopped by SIGINT, SIGTERM or SIGHUP. */
export const recordCommand: Command = createRecordCommand();

function stopSignal(given: AbortSignal | undefined): { signal: AbortSignal; release: () => void } {
  if (given !== undefined) return { signal: given, release: () => undefined };
  const ac = new AbortController();
  const stop = () => ac.abort();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  // A closed terminal: flush and close like SIGTERM. `on`, not `once`: a hangup usually comes twice,
  // and the second must not kill the recorder while it flushes.
  process.on("SIGHUP", stop);
  return {
    signal: ac.signal,
    release: () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      process.off("SIGHUP", stop);
    },
  };
}

function parseTokens(values: readonly string[] | undefined): string[] {
  const tokens = [
    ...new Set(
      (values ?? [])
        .flatMap((v) => v.split(","))
        .map((t) => t.trim())
        .filter((t) => t !== ""),
    ),
  ];
  if (tokens.length === 0) throw new UsageError("--tokens ID[,ID...] is required");
  const bad = tokens.find((t) => !/^\d{1,78}$/.test(t));
  if (bad !== undefined) throw new UsageError(`--tokens: ${JSON.stringify(bad)} is not a decimal token id`);
  return tokens;
}

function parseChannels(text: string | undefined): RecordableChannel[] {
  if (text === undefined) return [...DEFAULT_RECORD_CHANNELS];
  const list = [
    ...new Set(
      text
        .split(",")
        .map((c) => c.trim())
        .filter((c) => c !== ""),
    ),
  ];
  const bad = list.find((c) => !(RECORDABLE_CHANNELS as readonly string[]).includes(c));
  if (bad !== undefined || list.length === 0) {
    throw new UsageError(`--channels: expected a list of ${RECORDABLE_CHANNELS.join(", ")}`);
  }
  return list as RecordableChannel[];
}

function positive(flag: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || !(n > 0)) throw new UsageError(`${flag} must be a positive number`);
  return n;
}
