import { mkdir, stat } from "node:fs/promises";
import { resolve } from "node:path";
import type { Writable } from "node:stream";
import { takeEarlySignals } from "../app/early-signals.js";
import { exchangeClient } from "../app/exchange.js";
import { restStatusSource } from "../app/record-status.js";
import { ConfigError } from "../config/errors.js";
import { cleartextKeyIssues } from "../config/key-transport.js";
import { requireApiKey, secretValues } from "../config/secrets.js";
import type { Clock } from "../core/clock.js";
import { LiveClock } from "../core/live-clock.js";
import {
  DEFAULT_DRAIN_IDLE_MS,
  DEFAULT_RECORD_CHANNELS,
  RECORDABLE_CHANNELS,
  type RecordableChannel,
  type RecordSummary,
  record,
  TOKEN_CHANNELS,
} from "../gateway/record/recorder.js";
import { createLogger } from "../observability/logger.js";
import { type CliIo, type Command, EXIT, errorCode, errorLine, flagsOrHelp, UsageError } from "./command.js";
import { CONFIG_OPTION, CONFIG_OPTION_HELP, loadConfigFromFlags } from "./config-option.js";

const OPTIONS = {
  ...CONFIG_OPTION,
  tokens: { type: "string", short: "t", multiple: true },
  out: { type: "string", short: "o" },
  "rotate-mb": { type: "string" },
  "rotate-minutes": { type: "string" },
  channels: { type: "string" },
  "buffer-mb": { type: "string" },
  "drain-seconds": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

const DEFAULT_ROTATE_MB = 100;
const DEFAULT_ROTATE_MINUTES = 60;
const DEFAULT_BUFFER_MB = 64;
const DEFAULT_DRAIN_SECONDS = DEFAULT_DRAIN_IDLE_MS / 1_000;
/** After giving up on a hung disk: time for the process to end by itself before it is ended. */
const FORCE_EXIT_AFTER_MS = 1_000;

const HELP = [
  "Usage: mm record --tokens ID[,ID...] --out DIR [--config FILE ...] [--rotate-mb N]",
  "                 [--rotate-minutes N] [--channels LIST] [--buffer-mb N] [--drain-seconds N]",
  "",
  "Records /ws/market for the given tokens into DIR as rotating gzip JSON Lines files",
  '(market-<UTC start>-<seq>.jsonl.gz), one {"recvTs": ms, "frame": <frame as received>} per line:',
  "the input of `mm backtest`. Gaps, crossed books and reconnects trigger get_book_snapshot, so the",
  "files carry the snapshots a replay needs. Stops on SIGINT, SIGTERM or SIGHUP: the current file is flushed",
  "and closed, a JSON summary is printed, exit code 0. A second SIGINT or SIGTERM while closing only",
  "warns what is still to be written (closing goes on, bounded by --drain-seconds); a third gives up",
  "on it at once (exit 1, as --drain-seconds does). Every second the frames so far are flushed",
  "into the file: a recorder killed outright (SIGKILL, out of memory) loses about the last second,",
  "and `mm backtest` replays its last, unfinished file up to its last complete line.",
  "recvTs never goes back: if the wall clock steps back by up to 1 s, frames keep the last stamp",
  "until it catches up; by more (a clock that ran ahead, then was corrected), recvTs continues",
  "from the last stamp on the monotonic clock, keeping the intervals between frames, ahead of the",
  "wall clock by about the step (counted in the summary's recvTsClamped; clockStepBackMs is the",
  "largest step; each step is logged with its size).",
  "",
  "Options:",
  "  -t, --tokens IDS        Token ids (decimal), comma-separated; repeatable. Required.",
  "  -o, --out DIR           Output directory, created if missing (a bare - is refused). Required.",
  // The shared line is padded for a 22-character option column; this help's is 26.
  CONFIG_OPTION_HELP.replace("--config FILE   ", "--config FILE       "),
  `      --rotate-mb N       New file once the current one holds N MB compressed (default ${DEFAULT_ROTATE_MB}).`,
  `      --rotate-minutes N  New file once the current one is N minutes old (default ${DEFAULT_ROTATE_MINUTES}).`,
  `      --channels LIST     Channels to record (default ${DEFAULT_RECORD_CHANNELS.join(",")};`,
  `                          any of ${RECORDABLE_CHANNELS.join(", ")}). A list replaces the default:`,
  "                          name condition_lifecycle,system to keep the markets' pauses, statuses and",
  "                          resolutions and the platform's freezes, which `mm backtest` acts on.",
  "                          condition_lifecycle follows each token's market (its conditionId, from the",
  "                          token's first frame) and needs a token channel; system is platform_status.",
  "                          After each (re)subscribe of either, the current status is read over REST",
  "                          (exchange.baseUrl: GET /api/markets/{slug}, GET /api/platform/status) and",
  '                          recorded, marked "sid":"rest" (failures: the summary\'s statusReads.failed).',
  "                          Each rotated file starts with the markets' and the platform's last recorded",
  '                          lifecycle frames, marked "sid":"carry" (summary: carried), so it replays alone.',
  "                          Prints lost to a reconnect, to a subscription the server dropped or to a",
  "                          refused subscribe are marked per token (prints_missed, summary:",
  "                          printsMissed); mm backtest lists them under data.printsMissed. Pushes of",
  "                          a subscription not held are not recorded (summary: strays).",
  `      --buffer-mb N       Frames waiting for a slow disk, MiB of JSON, before the recording stops`,
  `                          with an error (default ${DEFAULT_BUFFER_MB}); nothing is dropped silently.`,
  `      --drain-seconds N   On stopping, how long the disk may take nothing before mm record gives up`,
  `                          on the frames it has not written and exits 1 (default ${DEFAULT_DRAIN_SECONDS}).`,
  "  -h, --help              Show this help.",
  "",
  "The gateway URL is exchange.wsUrl (MM_EXCHANGE_WS_URL), the HTTP API exchange.baseUrl; the API key comes from MM_API_KEY or",
  "secrets.apiKeyFile. Exit code 1 when the gateway closes for good (revoked, expired or suspended",
  "key: the files written so far are complete) or when writing fails (disk full, or a disk that",
  "fell --buffer-mb behind: the frames received before are written first, as long as the disk",
  "answers), also when the disk took nothing for --drain-seconds while closing (a hung mount: the",
  "message names the file and the frames that may be missing from it), 2 on bad usage or configuration.",
  "",
].join("\n");

/** What a test (or an embedding program) injects instead of process signals and the wall clock. */
export interface RecordCommandDeps {
  /** Stops the recording; default: the first SIGINT, SIGTERM or SIGHUP of `signals`. */
  readonly signal?: AbortSignal;
  /** Where SIGINT, SIGTERM and SIGHUP come from when `signal` is not given; default the process. */
  readonly signals?: SignalSource;
  readonly clock?: Clock;
  /** Where a file's compressed bytes go; default the file (tests pass a disk that stalls). */
  readonly openSink?: (path: string) => Writable;
  /**
   * Called with the exit code after giving up on a hung disk: a file operation the kernel never
   * completes keeps the event loop, hence the process, alive. Default: endProcess.
   */
  readonly forceExit?: (code: number) => void;
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
      // `./-` still names a directory called "-"; the bare dash reads as stdout (refused as
      // `mm backtest --out -` and `mm import … -` are).
      if (values.out === "-")
        throw new UsageError('--out -: a directory is needed, not stdout (./- for a directory called "-")');
      const outDir = resolve(io.cwd, values.out);
      const maxBytes = positive("--rotate-mb", values["rotate-mb"], DEFAULT_ROTATE_MB) * 1_000_000;
      const maxAgeMs =
        positive("--rotate-minutes", values["rotate-minutes"], DEFAULT_ROTATE_MINUTES) * 60_000;
      const channels = parseChannels(values.channels);
      const maxPendingBytes = Math.round(
        positive("--buffer-mb", values["buffer-mb"], DEFAULT_BUFFER_MB) * 1_048_576,
      );
      const drainIdleMs = positive("--drain-seconds", values["drain-seconds"], DEFAULT_DRAIN_SECONDS) * 1_000;
      const config = loadConfigFromFlags(values.config, io);
      const apiKey = requireApiKey(config);
      // Both URLs carry the key: the gateway's upgrade, and the REST status reads.
      const cleartext = cleartextKeyIssues(config);
      if (cleartext.length > 0) throw new ConfigError(cleartext);
      const logger = createLogger({
        level: config.log.level,
        pretty: false,
        secrets: secretValues(config),
        destination: { write: (line: string) => io.stderr(line) },
        base: { cmd: "record" },
      });
      const clock = deps.clock ?? new LiveClock();
      // The markets' and the platform's statuses are read over REST at each (re)subscribe: pushes
      // carry only changes, and one made while the socket was down would be missing otherwise.
      const http = exchangeClient(config, clock, logger);
      await requireOutFolder(outDir, values.out);
      const { signal, onStopAgain, release } = stopSignal(deps.signal, deps.signals ?? process);
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
          drainIdleMs,
          signal,
          onStopAgain,
          logger,
          clock,
          statusSource: restStatusSource(http),
          // The same setting as the daemon's connections: 0 (off) or a longer period holds here too.
          timing: { subscriptionCheckMs: config.exchange.wsSubscriptionCheckMs },
          ...(deps.openSink === undefined ? {} : { openSink: deps.openSink }),
          onSubscribed: (accepted, rejected) =>
            io.stderr(
              `mm record: recording ${tokens.length} token(s) on ${channels.join(", ")} into ${outDir}` +
                ` (${accepted} subscription id(s) accepted, ${rejected.length} rejection(s)); Ctrl-C stops\n`,
            ),
        });
      } finally {
        http.close();
        release();
      }
      const { fatal, writeError, drainAbandoned, ...rest } = summary;
      io.stdout(
        `${JSON.stringify({
          outDir,
          ...rest,
          fatal: fatal?.code ?? null,
          ...(drainAbandoned === undefined ? {} : { drainAbandoned: drainAbandoned.details }),
        })}\n`,
      );
      if (fatal !== undefined) {
        io.stderr(
          errorLine("mm record: ", `the gateway closed the connection for good: ${fatal.code}`, fatal.code),
        );
      }
      if (writeError !== undefined && writeError !== drainAbandoned) {
        const message = `writing failed: ${(writeError as Error).message}`;
        io.stderr(errorLine("mm record: ", message, errorCode(writeError)));
      }
      if (drainAbandoned !== undefined) {
        io.stderr(errorLine("mm record: ", drainAbandoned.message, drainAbandoned.code));
        (deps.forceExit ?? ((code) => endProcess(code, io)))(EXIT.unexpected);
      }
      return fatal === undefined && writeError === undefined ? EXIT.ok : EXIT.unexpected;
    },
  };
}

/** The process's signals, as stopSignal listens to them (tests emit them on an EventEmitter). */
export interface SignalSource {
  on(name: StopSignalName, listener: () => void): unknown;
  off(name: StopSignalName, listener: () => void): unknown;
}
type StopSignalName = "SIGINT" | "SIGTERM" | "SIGHUP";

/** `mm record`, stopped by SIGINT, SIGTERM or SIGHUP. */
export const recordCommand: Command = createRecordCommand();

/**
 * Ends the process a second after `mm record` gave up on a hung disk, unless it has ended by itself
 * (the timer is unref'd). process.exit(code) cannot end it while a file operation is stuck on
 * libuv's thread pool: exiting joins those threads first and would wait on the stuck one for ever.
 * So when a file operation is still pending then, the process kills itself (SIGKILL: exit status
 * 137, which shells and supervisors see as a failure, as they do 1), saying so with `(code disk_hung)`.
 */
function endProcess(code: number, io: CliIo): void {
  setTimeout(() => {
    if (!process.getActiveResourcesInfo().some((r) => r.startsWith("FSReq"))) process.exit(code);
    io.stderr(
      errorLine(
        "mm record: ",
        "a file operation on the disk never returned: ending the process (SIGKILL)",
        "disk_hung",
      ),
    );
    process.kill(process.pid, "SIGKILL");
  }, FORCE_EXIT_AFTER_MS).unref();
}

/**
 * The first SIGINT, SIGTERM or SIGHUP stops the recording (`signal` aborts). The handlers stay
 * installed while it closes: a second SIGINT or SIGTERM (Ctrl-C again, a supervisor's repeat)
 * would otherwise end the process by the default action, losing the frames still on their way to a
 * slow disk. It goes to `onStopAgain`'s listener instead (the recorder warns, then gives up on the
 * drain at the next). A repeated SIGHUP only stops: a closed terminal sends it more than once, and
 * nobody asked for haste.
 */
function stopSignal(
  given: AbortSignal | undefined,
  source: SignalSource,
): { signal: AbortSignal; onStopAgain: (listener: (signal: string) => void) => void; release: () => void } {
  let again: (signal: string) => void = () => undefined;
  const onStopAgain = (listener: (signal: string) => void) => {
    again = listener;
  };
  if (given !== undefined) return { signal: given, onStopAgain, release: () => undefined };
  const ac = new AbortController();
  const stop = (name: StopSignalName) => {
    if (!ac.signal.aborted) ac.abort();
    else if (name !== "SIGHUP") again(name);
  };
  const handlers = (["SIGINT", "SIGTERM", "SIGHUP"] as const).map((name) => {
    const handler = () => stop(name);
    source.on(name, handler);
    return { name, handler };
  });
  // Once ours are installed (so that a signal always has a handler: as PID 1 one meanwhile would be
  // dropped): a stop held since the process began (bin/mm.js, runCli) stops the recording at once.
  if (takeEarlySignals(["SIGINT", "SIGTERM", "SIGHUP"]).length > 0) ac.abort();
  return {
    signal: ac.signal,
    onStopAgain,
    release: () => {
      for (const { name, handler } of handlers) source.off(name, handler);
    },
  };
}

/**
 * Creates `--out` (with its parents) before connecting, refusing as bad usage (exit 2, naming the
 * option) a path that cannot be a folder: a file (EEXIST), one under a file (ENOTDIR), or one it
 * may not create (EACCES, EROFS…). Left to the recorder, these ended as an unexpected error, exit 1.
 */
async function requireOutFolder(outDir: string, given: string): Promise<void> {
  const st = await stat(outDir).catch(() => undefined);
  if (st !== undefined && !st.isDirectory()) {
    throw new UsageError(`--out ${given}: ${outDir} is a file, not a folder`);
  }
  try {
    await mkdir(outDir, { recursive: true });
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (typeof code !== "string") throw err;
    throw new UsageError(`--out ${given}: cannot create the folder ${outDir} (${code})`);
  }
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
  if (
    list.includes("condition_lifecycle") &&
    !list.some((c) => (TOKEN_CHANNELS as readonly string[]).includes(c))
  ) {
    // The markets are learned from the tokens' frames: without a token channel none would arrive.
    throw new UsageError(`--channels: condition_lifecycle needs one of ${TOKEN_CHANNELS.join(", ")}`);
  }
  return list as RecordableChannel[];
}

function positive(flag: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || !(n > 0)) throw new UsageError(`${flag} must be a positive number`);
  return n;
}
