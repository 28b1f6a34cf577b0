import { unknownEnvVars } from "../config/env-names.js";
import { loadConfig } from "../config/load.js";
import type { MmConfig } from "../config/types.js";
import { configWarnings } from "../config/warnings.js";
import type { CliIo } from "./command.js";

/** The `--config FILE` option (repeatable, later files win) shared by every command that loads config. */
export const CONFIG_OPTION = {
  config: { type: "string", short: "c", multiple: true },
} as const;

export const CONFIG_OPTION_HELP =
  "  -c, --config FILE   Layer FILE over config/default.json; repeat to layer several, later wins.";

/**
 * Loads the configuration from the files given with --config and the process environment.
 * Throws ConfigError (exit code 2 in the CLI) when anything is wrong; warns first about MM_*
 * variables that name no setting (warnUnknownEnv), then about settings partly without effect
 * (warnSettings). `secrets: false`: no secret is read or checked.
 */
export function loadConfigFromFlags(
  files: readonly string[] | undefined,
  io: CliIo,
  options: { readonly secrets?: boolean } = {},
): MmConfig {
  warnUnknownEnv(io);
  const env = options.secrets === false ? withoutSecrets(io.env) : io.env;
  const config = loadConfig({ files: files ?? [], env, cwd: io.cwd });
  warnSettings(config, io);
  return config;
}

/**
 * One stderr line per setting that is valid but partly without effect (config/warnings.ts).
 * @example warnSettings(config, io); // "config warning: risk.inventory.perMarket.hard: 2000 is above …"
 */
export function warnSettings(config: MmConfig, io: CliIo): void {
  for (const w of configWarnings(config)) io.stderr(`config warning: ${w.field}: ${w.message}\n`);
}

/**
 * The environment with every secret setting unset, for a command that needs no secret (`mm report`,
 * `mm paper` whose credentials come from the scenario): it then neither reads nor holds them.
 * "" rather than a deletion: the env wins over files, so key files a --config file names are
 * neither read nor checked.
 * @example loadConfig({ files, env: withoutSecrets(process.env) }).secrets.privateKey // undefined
 */
export function withoutSecrets(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out = { ...env };
  for (const name of ["MM_API_KEY", "MM_PRIVATE_KEY", "MM_API_KEY_FILE", "MM_PRIVATE_KEY_FILE"])
    out[name] = "";
  return out;
}

/**
 * One stderr line per MM_* variable of the environment that names no setting and is not close to
 * one: it may be another program's, so it is only named, never refused. Those close to a setting's
 * variable are the loader's to refuse, with the name they were probably meant for (load.ts).
 * Called once per command, before its load, so the warning precedes any config error.
 * @example warnUnknownEnv(io); // "config warning: MM_FOO: names no setting and is ignored (…)"
 */
export function warnUnknownEnv(io: CliIo): void {
  for (const { name, meant } of unknownEnvVars(io.env)) {
    if (meant !== null) continue;
    io.stderr(
      `config warning: ${name}: names no setting and is ignored (mm config --help lists the settings' variables)\n`,
    );
  }
}
