import type { DestinationStream } from "pino";
import pretty, { type MessageFormatFunc, type PrettyOptions } from "pino-pretty";
import { errorStack, prettyFields, safeText } from "./pretty-fields.js";

/** pino's level number of `error`: error and fatal lines show their error's stack under them. */
const ERROR_LEVEL = 50;

/**
 * The message, then the line's fields as `key=value` (dimmed), then for error and fatal lines the
 * error's stack. pino-pretty's own rendering of the fields is off (`hideObject`): one field per
 * line, indented, buries the message under them.
 */
const messageFormat: MessageFormatFunc = (log, messageKey, _levelLabel, { colors }) => {
  const raw = log[messageKey];
  // A newline would start a line of its own, without time or level: text from the exchange (a
  // refusal's message) could forge one.
  const msg = typeof raw === "string" ? safeText(raw).replace(/\n/g, "\\n") : "";
  const fields = prettyFields(log);
  let line = msg;
  // A line without a message starts with its fields, without their leading space.
  if (fields !== "") line = msg === "" ? colors.gray(fields.slice(1)) : `${msg}${colors.gray(fields)}`;
  if (typeof log.level === "number" && log.level >= ERROR_LEVEL) {
    const stack = errorStack(log);
    if (stack !== undefined) line += `\n    ${stack.split("\n").join("\n    ")}`;
  }
  return line;
};

/** pino-pretty's options for a terminal: one line per event, its fields after the message. */
export const HUMAN_LOG_OPTIONS: PrettyOptions = { colorize: true, hideObject: true, messageFormat };

/**
 * A pino destination writing human-readable lines (see {@link HUMAN_LOG_OPTIONS}) to `destination`
 * (stdout when omitted). The line pino hands it is already redacted and scrubbed of secrets.
 * @example createLogger({ level: "info", destination: humanLogStream(new SurvivingDestination(1, true)) });
 */
export function humanLogStream(
  destination?: NodeJS.WritableStream | DestinationStream,
  options: PrettyOptions = {},
): DestinationStream {
  return pretty({ ...HUMAN_LOG_OPTIONS, ...options, ...(destination === undefined ? {} : { destination }) });
}
