import { readFileSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { holdEarlySignals } from "../app/early-signals.js";
import { keepRunningWithoutOutput } from "../app/lost-output.js";
import { ConfigError } from "../config/errors.js";
import { packageRoot } from "../config/paths.js";
import { secretShape } from "../config/secret-shapes.js";
import { parseApiKey } from "../core/api-key.js";
import { ScenarioError } from "../mock/scenario/load.js";
import { expandSecrets, scrub } from "../observability/logger.js";
import { type CliIo, type Command, EXIT, errorCode, errorLine, UsageError } from "./command.js";
import { COMMANDS } from "./commands.js";

function usage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    "Usage: mm <command> [options]",
    "",
    "Commands:",
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    "",
    "Options:",
    "  -h, --help      Show this help; `mm <command> --help` shows a command's help.",
    "  -v, --version   Print the version.",
    "",
    "Exit codes: 0 ok, 1 unexpected error, 2 configuration or usage error, 3 (mm run, mm paper) the API key was refused for good.",
    "",
  ].join("\n");
}

function version(): string {
  const manifest = JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as {
    version?: string;
  };
  return manifest.version ?? "unknown";
}

/**
 * Runs `mm` with the given arguments (without node and script) and resolves to the exit code.
 * Everything it writes to stderr is scrubbed of the secrets found in the environment, including a
 * key pasted into MM_API_KEY_FILE / MM_PRIVATE_KEY_FILE.
 * @example process.exitCode = await main(["config", "--config", "live.json"], processIo());
 */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const secrets = expandSecrets([...envSecrets(io.env), ...argvSecrets(argv)]);
  const safe: CliIo = { ...io, stderr: (text) => io.stderr(scrub(text, secrets)) };
  const [first, ...rest] = argv;
  if (first === undefined) {
    safe.stderr(usage());
    return EXIT.usage;
  }
  if (first === "-h" || first === "--help" || first === "help") {
    const command = first === "help" && rest[0] !== undefined ? find(rest[0]) : undefined;
    safe.stdout(command?.help ?? usage());
    return EXIT.ok;
  }
  if (first === "-v" || first === "--version") {
    safe.stdout(`${version()}\n`);
    return EXIT.ok;
  }
  const command = find(first);
  if (command === undefined) {
    const what = first.startsWith("-") ? "unknown option" : "unknown command";
    safe.stderr(`${errorLine("mm: ", `${what} ${JSON.stringify(first)}`, "usage_error")}\n${usage()}`);
    return EXIT.usage;
  }
  try {
    return await command.run(rest, safe);
  } catch (err) {
    return reportFailure(err, command, safe);
  }
}

/**
 * The secret values of the environment: the two keys, and a key-file variable's value when it is
 * shaped like a key (a key pasted where its path belongs). A plain path stays readable in messages.
 * An API key's secret part is registered on its own too, as the logger does: it can reach stderr
 * without the rest of the key (typed into another setting, or quoted by a message).
 */
function envSecrets(env: NodeJS.ProcessEnv): string[] {
  const files = [env.MM_API_KEY_FILE ?? "", env.MM_PRIVATE_KEY_FILE ?? ""].filter(
    (v) => secretShape(v) !== null,
  );
  const keys = [env.MM_API_KEY ?? "", env.MM_PRIVATE_KEY ?? "", ...files];
  const parts = keys.flatMap((k) => {
    const parsed = parseApiKey(k.trim());
    return parsed.ok ? [parsed.parts.secret] : [];
  });
  return [...keys, ...parts];
}

/**
 * Arguments shaped like a key, or an option's `=value` that is one: a key typed where a path or
 * nothing belongs (`mm run $MM_API_KEY`, `--config "$(cat key)"`) would come back whole in a usage
 * or `cannot read` error. Ordinary arguments stay readable. An API key's secret part is registered
 * on its own too, as envSecrets does.
 */
function argvSecrets(argv: readonly string[]): string[] {
  const values = argv.flatMap((a) => {
    const eq = a.startsWith("-") ? a.indexOf("=") : -1;
    return eq === -1 ? [a] : [a, a.slice(eq + 1)];
  });
  const keys = values.filter((v) => {
    const shape = secretShape(v);
    return shape === "an API key" || (shape === "a private key" && !namesFile(v));
  });
  const parts = keys.flatMap((k) => {
    const parsed = parseApiKey(k.trim());
    return parsed.ok ? [parsed.parts.secret] : [];
  });
  return [...keys, ...parts];
}

/**
 * A path, or a file's name after a 64-hex run: a directory or capture named by a condition id or a
 * hash has a private key's shape, and scrubbing it would hide the very path its error is about. A key
 * typed where a path belongs comes bare (`$(cat key)`), with no separator and no extension after it.
 */
function namesFile(arg: string): boolean {
  return /[\\/]/.test(arg) || /[0-9a-fA-F]{64}\.[A-Za-z]/.test(arg);
}

function find(name: string): Command | undefined {
  return COMMANDS.find((c) => c.name === name);
}

/**
 * The one place a command's failure reaches stderr: every line names the error's code
 * (errorLine; a command prints the errors it counts as bad input itself, in the same form:
 * inputError). Config, scenario and usage errors exit 2, anything else 1.
 */
function reportFailure(err: unknown, command: Command, io: CliIo): number {
  const code = errorCode(err);
  if (err instanceof ConfigError) {
    io.stderr(
      err
        .lines()
        .map((line) => errorLine("config error: ", line, code))
        .join(""),
    );
    return EXIT.usage;
  }
  if (err instanceof ScenarioError) {
    const file = String(err.details.file);
    io.stderr(err.issues.map((line) => errorLine("scenario error: ", `${line} (in ${file})`, code)).join(""));
    return EXIT.usage;
  }
  const prefix = `mm ${command.name}: `;
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof UsageError || isParseArgsError(err)) {
    io.stderr(`${errorLine(prefix, message, code)}Run 'mm ${command.name} --help' for usage.\n`);
    return EXIT.usage;
  }
  io.stderr(errorLine(prefix, `unexpected error: ${message}`, code));
  return EXIT.unexpected;
}

/** node:util parseArgs throws TypeErrors with ERR_PARSE_ARGS_* codes for bad options. */
function isParseArgsError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("ERR_PARSE_ARGS_");
}

/** The real process streams, environment and working directory. */
export function processIo(): CliIo {
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    env: process.env,
    cwd: callerCwd(process.env, process.cwd()),
  };
}

/**
 * The folder a command's relative paths (--config, --data, --out, --journal…) are resolved from:
 * the caller's (INIT_CWD, which npm sets to the folder it was run in) when this package's own
 * `npm run mm` script runs mm, as npm runs a script from the package root; otherwise the process's
 * working directory. `npm start`, `node bin/mm.js` and `tsx src/cli/main.ts` are not affected,
 * nor another package's script called "mm" (npm_package_json names the package whose script runs).
 * @example callerCwd({ npm_lifecycle_event: "mm", npm_package_json: "/repo/package.json", INIT_CWD: "/home/me/data" }, "/repo", "/repo") // "/home/me/data"
 */
export function callerCwd(env: NodeJS.ProcessEnv, cwd: string, root: string = packageRoot()): string {
  const init = env.INIT_CWD;
  const manifest = env.npm_package_json;
  if (env.npm_lifecycle_event !== "mm" || manifest === undefined || init === undefined || !isAbsolute(init)) {
    return cwd;
  }
  return samePath(dirname(manifest), root) ? init : cwd;
}

// Compared as real paths: npm may name the package through a symlink (npm --prefix link/).
function samePath(a: string, b: string): boolean {
  const real = (p: string): string => {
    try {
      return realpathSync(p);
    } catch {
      return resolve(p);
    }
  };
  return real(a) === real(b);
}

/**
 * Entry used by bin/mm.js: runs `mm` on the process and sets its exit code. `mm run`/`mm paper`
 * hold their stop and re-arm signals first thing, `mm record` its stop signals (holdEarlySignals;
 * bin/mm.js holds them earlier still, before loading the CLI), so a signal while the configuration
 * is read is not lost. A
 * reader that goes away (a closed terminal after SIGHUP, `mm report | head`) silences the output
 * instead of killing the process mid-command.
 */
export async function runCli(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  holdEarlySignals(argv);
  keepRunningWithoutOutput();
  process.exitCode = await main(argv, processIo());
}

function isEntryPoint(): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

// `tsx src/cli/main.ts …` (npm run mm) runs the CLI directly; bin/mm.js imports it and calls runCli.
if (isEntryPoint()) await runCli();
