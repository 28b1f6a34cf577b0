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
 * `exchange.baseUrl` (refused, unresolvable host, TLS, timeout), answered there with an error (a
 * wrong path answers 404), or answered 200 with something that is not the exchange's answer (another
 * web server's HTML page or JSON). The message names the setting, its URL (no credentials), the URL
 * read and what was wrong.
 */
export class StartReadError extends MmError {
  constructor(err: ExchangeError, baseUrl: string) {
    const url = publicUrl(baseUrl);
    const errno = errnoOf(err.cause);
    const readUrl = err.path === undefined ? undefined : `${url.replace(/\/+$/, "")}${err.path}`;
    const read = readUrl === undefined ? err.endpoint : `${err.endpoint} at ${readUrl}`;
    super(
      "start_read_failed",
      `exchange.baseUrl ${url}: ${read}: ${describe(err, errno)}; ${hint(err)}`,
      {
        setting: "exchange.baseUrl",
        url,
        endpoint: err.endpoint,
        ...(readUrl === undefined ? {} : { readUrl }),
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
  let own = err.message.startsWith(`${err.endpoint}: `)
    ? err.message.slice(err.endpoint.length + 2)
    : err.message;
  // A boundary check names the field from the endpoint ("GET /api/markets.markets"), already said.
  if (err.code === "malformed_response" && own.startsWith(err.endpoint)) {
    own = `body${own.slice(err.endpoint.length)}`;
  }
  if (err.httpStatus !== undefined) return `HTTP ${err.httpStatus} ${err.code}: ${own}`;
  // Node's TLS errors say what failed but not their code, which is what an operator searches for.
  const code = errno === undefined || own.includes(errno) ? "" : ` [${errno}]`;
  return `${own}${code}`;
}

/** What to check: a 2xx that is not the exchange's answer points at the setting, not at an outage. */
function hint(err: ExchangeError): string {
  const ok = err.httpStatus !== undefined && err.httpStatus >= 200 && err.httpStatus < 300;
  return ok && err.code === "malformed_response"
    ? "the answer is not the exchange API's: check the setting"
    : "check the setting, or whether the exchange is up";
}

function errnoOf(cause: unknown): string | undefined {
  const code = (cause as { code?: unknown } | null | undefined)?.code;
  return typeof code === "string" ? code : undefined;
}
