import { describeConfig } from "../config/describe.js";
import { renderSettingsTable } from "../config/docs.js";
import { settings } from "../config/schema.js";
import { secretValues } from "../config/secrets.js";
import { expandSecrets, scrub } from "../observability/logger.js";
import { type CliIo, type Command, EXIT, flagsOrHelp } from "./command.js";
import { CONFIG_OPTION, CONFIG_OPTION_HELP, loadConfigFromFlags } from "./config-option.js";

const OPTIONS = {
  ...CONFIG_OPTION,
  docs: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

function help(): string {
  const rows = settings().map(({ path, spec }) => `  ${path.padEnd(34)} ${spec.env}`);
  return [
    "Usage: mm config [--config FILE ...] [--docs]",
    "",
    "Validates the configuration and prints the effective settings as JSON. Secrets are shown as",
    '"[REDACTED]" with whether each is present, where it came from, the API key id and the wallet address.',
    "Exit code 0 when valid, 2 with one line per bad setting otherwise.",
    "",
    "Options:",
    CONFIG_OPTION_HELP,
    "      --docs          Print every setting as a Markdown table (setting | env | default | doc).",
    "  -h, --help          Show this help.",
    "",
    "Precedence: schema default < config/default.json < each --config file < environment.",
    "An MM_* variable that names no setting is refused when it is close to a setting's (a typo:",
    "the line names the one meant), otherwise named in a warning and ignored.",
    "Secrets come only from the environment (MM_API_KEY, MM_PRIVATE_KEY) or from key files",
    "(secrets.apiKeyFile, secrets.privateKeyFile; mode 0600); a config file holding a secret is refused.",
    "",
    "Settings and their environment variables:",
    ...rows,
    "",
  ].join("\n");
}

const HELP = help();

/** `mm config`: validate the configuration and print it with secrets redacted. */
export const configCommand: Command = {
  name: "config",
  summary: "Validate the configuration and print the effective settings (secrets redacted)",
  help: HELP,
  async run(argv: readonly string[], io: CliIo): Promise<number> {
    const values = flagsOrHelp(argv, OPTIONS, HELP, io);
    if (values === undefined) return EXIT.ok;
    if (values.docs === true) {
      io.stdout(`${renderSettingsTable()}\n`);
      return EXIT.ok;
    }
    const config = loadConfigFromFlags(values.config, io);
    // describeConfig never includes a secret value; the scrub is a second, independent guard.
    const json = JSON.stringify(describeConfig(config), null, 2);
    io.stdout(`${scrub(json, expandSecrets(secretValues(config)))}\n`);
    return EXIT.ok;
  },
};
