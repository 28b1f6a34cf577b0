import { expect } from "vitest";
import type { MarketRecordStatus } from "../../../../src/engine/ports.js";
import { ExchangeError } from "../../../../src/exchange/exchange-error.js";
import type { Harness } from "./harness.js";

/** The exchange's 404 for a market record it does not show (CANCELLED, not public, or renamed). */
export const notFound = (): ExchangeError =>
  new ExchangeError({
    code: "market_not_found",
    message: "no market",
    outcome: "rejected",
    endpoint: "GET /api/markets/{slug}",
    httpStatus: 404,
  });

/** Two markets quoted on books that never move (a silent pause shows nowhere), the engine started. */
export async function twoQuoted(h: Harness): Promise<{ a: string; b: string }> {
  const [a] = h.tokens(1);
  const [b] = h.tokens(2);
  h.crowdQuote(a, "0.48", "0.52");
  h.crowdQuote(b, "0.48", "0.52");
  const starting = h.engine.start();
  await h.run(500);
  await starting;
  expect(h.botQuotes(a)).toHaveLength(2);
  expect(h.botQuotes(b)).toHaveLength(2);
  return { a, b };
}

/**
 * m1's record as the exchange holds it, read afresh at each call: `ex.recordStatus` by
 * `ex.recordSlug`, a 404 by any other slug (the one it left, once retitled).
 */
export const recordBy =
  (ex: { readonly recordSlug: string; readonly recordStatus: string }) =>
  async ({ slug }: { readonly slug: string | undefined }): Promise<MarketRecordStatus> => {
    if (slug !== ex.recordSlug) throw notFound();
    return { status: ex.recordStatus };
  };

/** One market quoted on a book that never moves, the engine started: its token (quotes not checked). */
export async function oneQuoted(h: Harness): Promise<string> {
  const [a] = h.tokens(1);
  h.crowdQuote(a, "0.48", "0.52");
  const starting = h.engine.start();
  await h.run(500);
  await starting;
  return a;
}

/** The harness's log lines holding `text`. */
export const logLines = (h: Harness, text: string): string[] =>
  h.logs
    .text()
    .split("\n")
    .filter((l) => l.includes(text));
