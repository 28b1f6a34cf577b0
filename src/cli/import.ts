import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { ImportError } from "../backtest/import/errors.js";
import {
  importPolymarketPriceChanges,
  POLYMARKET_PRICE_CHANGE_CSV,
} from "../backtest/import/polymarket-price-changes.js";
import { type CliIo, type Command, EXIT, inputError, UsageError } from "./command.js";

const FORMATS = [POLYMARKET_PRICE_CHANGE_CSV] as const;

const OPTIONS = {
  format: { type: "string", short: "f" },
  "outcome-index": { type: "string" },
  force: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

const HELP = [
  "Usage: mm import --format FORMAT [--outcome-index N] [--force] IN OUT",
  "",
  "Converts a market-data capture into mm's recorded format (gzip JSON Lines of",
  '{"recvTs": ms, "frame": /ws/market frame}), the input of `mm backtest`.',
  "",
  "Formats:",
  "  polymarket-price-change-csv  Polymarket legacy price_change messages as CSV (columns id,",
  "                               asset_id, market, timestamp, hash, changes). Each token starts",
  "                               with a synthetic empty book_snapshot (seq 1); every row becomes",
  "                               one book_delta with contiguous seq/prevSeq, rows sorted by",
  "                               timestamp then id; BUY changes are bids, SELL changes asks.",
  "                               Rows repeated exactly (captures joined into one CSV) are dropped.",
  "",
  "A directory of recorded files replays as one stream merged by receive time, so OUT is refused",
  "when its directory already holds an import of the same capture (every frame would replay twice)",
  "or of another capture with one of its tokens over overlapping times (two book streams of one",
  "token: the later one's empty first snapshot wipes the book mid-stream). Import such a capture",
  "into another directory, or join the CSVs and import them once. Captures that follow each other",
  'in time may share a directory. The first record of OUT says where it came from ("source":',
  "format, the input's sha256, each token's first and last time).",
  "",
  "Options:",
  "  -f, --format FORMAT      Input format (required).",
  "      --outcome-index N    data.outcomeIndex to write into every frame (the CSV lacks it;",
  "                           omitted from the frames when not given). For a single-token",
  "                           capture: one CSV may hold several tokens (YES and NO), and all",
  "                           would get N; give theirs in the backtest config's markets.tokens.",
  "      --force              Replace OUT if it exists.",
  "  -h, --help               Show this help.",
  "",
  "Prints a one-line JSON summary. Exit code 0 on success, 2 on bad usage, bad input (the error",
  "names the file and line) or an OUT refused as above (the error names the file already there);",
  "OUT is only created when the whole import succeeded. A bare - for IN or OUT is refused (exit 2:",
  "no stdin or stdout); ./- names a file called -.",
  "",
].join("\n");

/** `mm import`: convert a capture into the recorded format. */
export const importCommand: Command = {
  name: "import",
  summary: "Convert a market-data capture (Polymarket price_change CSV) into the recorded format",
  help: HELP,
  async run(argv: readonly string[], io: CliIo): Promise<number> {
    const { values, positionals } = parseArgs({
      args: [...argv],
      options: OPTIONS,
      strict: true,
      allowPositionals: true,
    });
    if (values.help === true) {
      io.stdout(HELP);
      return EXIT.ok;
    }
    if (values.format === undefined) throw new UsageError("--format is required");
    if (!(FORMATS as readonly string[]).includes(values.format)) {
      throw new UsageError(`unknown format ${JSON.stringify(values.format)} (known: ${FORMATS.join(", ")})`);
    }
    if (positionals.length !== 2) throw new UsageError("expected two arguments: IN OUT");
    const outcomeIndex = parseOutcomeIndex(values["outcome-index"]);
    const [input, output] = positionals.map((p) => resolve(io.cwd, p)) as [string, string];
    try {
      refuseDash(positionals);
      const summary = await importPolymarketPriceChanges({
        input,
        output,
        force: values.force === true,
        ...(outcomeIndex === undefined ? {} : { outcomeIndex }),
      });
      io.stdout(`${JSON.stringify({ output, ...summary })}\n`);
      return EXIT.ok;
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (err instanceof ImportError || (typeof code === "string" && PATH_ERRORS.has(code))) {
        return inputError("import", err, io);
      }
      throw err;
    }
  },
};

/**
 * Refuses a bare `-` for IN or OUT, as `mm backtest --out -` is refused: read as a path it would
 * name a file called "-" in the working directory, which is not what a dash means. Neither stdin
 * nor stdout is offered: the import sorts the whole input before writing (a file is as good), and
 * stdout carries the summary line while the output is gzip.
 */
function refuseDash(positionals: readonly string[]): void {
  const [input, output] = positionals;
  for (const [arg, given, stream] of [
    ["IN", input, "stdin"],
    ["OUT", output, "stdout"],
  ] as const) {
    if (given !== "-") continue;
    throw new ImportError(
      `${arg === "IN" ? "input" : "output"}_${stream}_unsupported`,
      `${arg} -: ${stream} is not supported, name a file (./- for a file called "-")`,
      { argument: arg },
    );
  }
}

/** File-system refusals of a path the user gave (missing, not a folder, no access…): bad usage, exit 2. */
const PATH_ERRORS: ReadonlySet<string> = new Set([
  "ENOENT",
  "EISDIR",
  "ENOTDIR",
  "EACCES",
  "ENAMETOOLONG",
  "ELOOP",
]);

function parseOutcomeIndex(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d{1,3}$/.test(text)) throw new UsageError(`--outcome-index must be a small non-negative integer`);
  return Number(text);
}
