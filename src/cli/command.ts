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

/** Exit codes of every mm command. */
export const EXIT = { ok: 0, unexpected: 1, usage: 2 } as const;
