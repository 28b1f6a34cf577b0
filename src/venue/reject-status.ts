/**
 * HTTP status of each placement the venue rejects, as the exchange answers it: business rejects
 * (insufficient_funds, matcher_error; the spec's "200 (envelope)") keep the success status with the
 * reject in the body — 201, the placement's — and validation rejects take their catalogue status.
 * One table for the mock's HTTP route and the backtest's VenueExchange, so a replay reports a reject
 * with the status a paper or live run would log.
 */
const PLACE_REJECT_STATUS: Readonly<Record<string, number>> = {
  insufficient_funds: 201,
  matcher_error: 201,
  invalid_amounts: 400,
  invalid_tif: 400,
  invalid_outcome: 400,
  expired: 400,
  market_not_open: 409,
};

/**
 * The HTTP status a placement rejected with `code` is answered with (201, the envelope, for a code
 * outside the table: the venue's business rejects).
 * @example placeRejectStatus("market_not_open") // 409
 */
export function placeRejectStatus(code: string | undefined): number {
  return PLACE_REJECT_STATUS[code ?? ""] ?? 201;
}
