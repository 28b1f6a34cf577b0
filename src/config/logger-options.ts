import { secretValues } from "./secrets.js";
import type { MmConfig } from "./types.js";

/** The options createLogger (src/observability/logger.ts) takes from the configuration. */
export interface ConfiguredLoggerOptions {
  level: string;
  pretty?: boolean;
  secrets: string[];
}

/**
 * Logger options from the configuration, with every secret value registered for scrubbing.
 * @example const log = createLogger(loggerOptions(config));
 */
export function loggerOptions(config: MmConfig): ConfiguredLoggerOptions {
  const { level, pretty } = config.log;
  return { level, secrets: secretValues(config), ...(pretty === "auto" ? {} : { pretty }) };
}
