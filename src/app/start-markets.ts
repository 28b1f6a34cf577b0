import type { MmConfig } from "../config/types.js";
import type { ExchangeHttpClient } from "../exchange/client.js";
import type { Logger } from "../observability/logger.js";
import { type QuotedMarkets, selectMarkets } from "./markets.js";
import { StartStoppedError, startReadError } from "./start-errors.js";

/**
 * The daemon's first step: selectMarkets (GET /api/markets, /api/markets/{slug}), bounded by a stop
 * request. A request before or during the reads closes `client` (cutting the reads in flight: a
 * slow or hung exchange must not hold the stop until the lifecycle's deadline) and rejects with a
 * StartStoppedError; nothing has been opened yet, so there is nothing else to stop. A read that
 * fails rejects with a StartReadError naming exchange.baseUrl (see startReadError).
 * @example const markets = await marketsAtStart(client, config, logger, stopRequested);
 */
export async function marketsAtStart(
  client: ExchangeHttpClient,
  config: MmConfig,
  logger: Logger,
  stop: AbortSignal | undefined,
): Promise<QuotedMarkets> {
  const reasonOf = (s: AbortSignal) => String(s.reason ?? "stop requested");
  if (stop?.aborted === true) throw new StartStoppedError(reasonOf(stop));
  const reading = selectMarkets(client, config).catch((err: unknown) => {
    throw startReadError(err, config.exchange.baseUrl);
  });
  if (stop === undefined) return reading;
  let onAbort: () => void = () => undefined;
  const stopped = new Promise<never>((_, reject) => {
    onAbort = () => {
      client.close();
      reject(new StartStoppedError(reasonOf(stop)));
    };
  });
  stop.addEventListener("abort", onAbort, { once: true });
  try {
    return await Promise.race([reading, stopped]);
  } finally {
    stop.removeEventListener("abort", onAbort);
    // A read cut by the stop fails after the race is decided: nobody waits for it any more.
    reading.catch((err: unknown) => logger.debug({ err }, "start: a market read cut by the stop failed"));
  }
}
