import { MmError } from "../core/errors.js";
import { publicUrl } from "../core/public-url.js";
import { ExchangeError } from "../exchange/exchange-error.js";

/**
 * The daemon's start was abandoned because a stop was requested before there was anything to stop
 * (while the markets were read): nothing was opened or placed. The lifecycle turns it into the
 * request's own outcome (exit 0), never an error.
 */
export class StartStoppedError extends MmError {
  constructor(reason: string) {
    super("start_stopped", `the start was stopped (${reason}) before anything was opened`, { reason });
  }
}

/**
 * The start's first REST read (the markets) failed: the exchange cannot be reached at
 * `exchange.baseUrl` (refused, unresolvable host, TLS, timeout) or answered there with an error (a
 * wrong path answers 404). The message names the setting, its URL (no credentials) and the cause.
 */
export class StartReadError extends MmError {
  constructor(err: ExchangeError, baseUrl: string) {
    const url = publicUrl(baseUrl);
    const errno = errnoOf(err.cause);
    super(
      "start_read_failed",
      `exchange.baseUrl ${url}: ${describe(err, errno)}; check the setting, or whether the exchange is up`,
      {
        setting: "exchange.baseUrl",
        url,
        endpoint: err.endpoint,
        ...(err.httpStatus === undefined ? {} : { httpStatus: err.httpStatus }),
        ...(errno === undefined ? {} : { cause: errno }),
      },
      { cause: err },
    );
  }
}

/**
 * What a failed start-up read of the markets throws: a StartReadError naming exchange.baseUrl for
 * an exchange failure, except a refused key (HTTP 401: exit 3, the exchange's own error) and
 * anything that is not an exchange failure (a ConfigError stays exit 2), returned as they are.
 * @example throw startReadError(err, config.exchange.baseUrl)
 */
export function startReadError(err: unknown, baseUrl: string): unknown {
  if (!(err instanceof ExchangeError) || err.httpStatus === 401) return err;
  return new StartReadError(err, baseUrl);
}

function describe(err: ExchangeError, errno: string | undefined): string {
  const own = err.message.startsWith(`${err.endpoint}: `)
    ? err.message.slice(err.endpoint.length + 2)
    : err.message;
  if (err.httpStatus !== undefined) return `${err.endpoint}: HTTP ${err.httpStatus} ${err.code}: ${own}`;
  // Node's TLS errors say what failed but not their code, which is what an operator searches for.
  const code = errno === undefined || own.includes(errno) ? "" : ` [${errno}]`;
  return `${err.endpoint}: ${own}${code}`;
}

function errnoOf(cause: unknown): string | undefined {
  const code = (cause as { code?: unknown } | null | undefined)?.code;
  return typeof code === "string" ? code : undefined;
}
