import { type ParseArgsConfig, parseArgs } from "node:util";

type ParseArgsOptionsConfig = NonNullable<ParseArgsConfig["options"]>;

import { errorCode, withCode } from "../core/error-code.js";
import { MmError } from "../core/errors.js";

/** What a subcommand may touch: output streams, the environment and the working directory. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
}

/** One `mm <name>` subcommand; each lives in its own file and is listed in commands.ts. */
export interface Command {
  readonly name: string;
  /** One line for `mm --help`. */
  readonly summary: string;
  /** Full help for `mm <name> --help`. */
  readonly help: string;
  /** Runs with the arguments after the subcommand name; resolves to the exit code. */
  run(argv: readonly string[], io: CliIo): Promise<number>;
}

/** Bad command-line usage: exit code 2 with a hint to read `--help`. */
export class UsageError extends MmError {
  constructor(message: string) {
    super("usage_error", message);
  }
}

// The code an error line names lives in core: the daemon's lifecycle (src/app) names codes too.
export { errorCode };

/**
 * An error as every mm command prints it on stderr: `<prefix><message> (code <code>)`, so a grep or
 * a log shipper can key on the code. A message of several lines (a list of problems) gets the code on
 * its first line, before that line's closing colon: `sweep file is invalid (code sweep_invalid):`.
 * @example errorLine("mm backtest: ", "--out -: stdout is not supported", "output_stdout_unsupported")
 * // "mm backtest: --out -: stdout is not supported (code output_stdout_unsupported)\n"
 */
export function errorLine(prefix: string, message: string, code: string): string {
  return `${prefix}${withCode(message, code)}\n`;
}

/**
 * Prints an error a command counts as bad input (exit 2) as `mm <name>: <message> (code <code>)`,
 * the form main gives every other failure, and returns EXIT.usage.
 * @example catch (err) { if (err instanceof JournalError) return inputError("report", err, io); throw err; }
 */
export function inputError(name: string, err: unknown, io: CliIo): number {
  io.stderr(errorLine(`mm ${name}: `, err instanceof Error ? err.message : String(err), errorCode(err)));
  return EXIT.usage;
}

/** Exit codes of every mm command. */
export const EXIT = { ok: 0, unexpected: 1, usage: 2 } as const;

/**
 * Parses a subcommand's flags strictly (unknown options and positionals are usage errors) and
 * answers `--help`: returns the parsed values, or undefined after printing the help (exit 0).
 * @example const values = flagsOrHelp(argv, OPTIONS, HELP, io); if (values === undefined) return EXIT.ok;
 */
export function flagsOrHelp<const O extends ParseArgsOptionsConfig & { help: { type: "boolean" } }>(
  argv: readonly string[],
  options: O,
  help: string,
  io: CliIo,
): ParsedValues<O> | undefined {
  const { values } = parseArgs({ args: [...argv], options, strict: true, allowPositionals: false });
  if ((values as { help?: boolean }).help === true) {
    io.stdout(help);
    return undefined;
  }
  return values as ParsedValues<O>;
}

/** The values parseArgs yields for a strict options table. */
export type ParsedValues<O extends ParseArgsOptionsConfig> = ReturnType<
  typeof parseArgs<{ options: O; strict: true; allowPositionals: false }>
>["values"];
