import { describe, expect, it } from "vitest";
import type { ListedMarketStatus, MarketRecordStatus } from "../../../src/engine/ports.js";
import { LIST_WORD } from "../../../src/engine/sweep-words.js";
import { Harness } from "./support/harness.js";
import { logLines as lines, notFound, twoQuoted } from "./support/sweep-rig.js";

/*
 * A market back under a new slug (the spec derives slugs from titles): the list shows it by its id
 * under the new slug, and its old slug is a 404. The engine kept the old slug for the run, so:
 * - a market held NOT_FOUND that the list showed by its id as PAUSED or PRE_MARKET took the list's
 *   status and was no longer held NOT_FOUND: the sweep stopped reading the list for it, and the
 *   closed-market watch read its record by the old slug, a 404, counted as a failing read. Opened
 *   later, it was never quoted again, and mm_market_status_reads_failing{watch="closed"} stayed up
 *   for the run (a false MmMarketStatusReadsFailing, whose runbook says to check the exchange);
 * - a quoted market renamed, then paused, had its confirm read go to the old slug: held on the
 *   list's word, then watched by the old slug, a 404 for ever.
 * The list's records carry the slug: a market shown by its id under another one takes it, and its
 * record is read by it from then on.
 */

const RECHECK_MS = 5_000;
const NEW_SLUG = "renamed-market";

const closedGauge = (h: Harness) =>
  h
    .eventsOf("market_reads_failing")
    .filter((e) => e.watch === "closed")
    .map((e) => e.failing);

/**
 * The exchange of a market m1 back under NEW_SLUG: its record found by that slug only (the old one a
 * 404), saying what the list says; `slugs` are the slugs its record was read by.
 */
function renamedRecord(
  h: Harness,
  listed: { current: ListedMarketStatus | undefined },
  slugs: string[],
): void {
  h.exchange.listedMarkets = async (): Promise<ListedMarketStatus[]> =>
    listed.current === undefined ? [] : [listed.current];
  h.exchange.marketRecord = async ({ slug }): Promise<MarketRecordStatus> => {
    slugs.push(slug ?? "");
    if (slug !== NEW_SLUG || listed.current === undefined) throw notFound();
    return { status: listed.current.status };
  };
}

/** One market quoted, then gone (not listed, record 404): held NOT_FOUND. `listed` is what the list shows. */
async function lostThenListed(
  h: Harness,
  listed: { current: ListedMarketStatus | undefined },
  slugs: string[] = [],
): Promise<string> {
  renamedRecord(h, listed, slugs);
  const [a] = h.tokens(1);
  h.crowdQuote(a, "0.48", "0.52");
  const starting = h.engine.start();
  await h.run(500);
  await starting;
  expect(h.botQuotes(a)).toHaveLength(2);
  await h.run(RECHECK_MS);
  expect(h.botQuotes(a)).toEqual([]); // held NOT_FOUND
  return a;
}

describe("a market held NOT_FOUND, back under a new slug not OPEN yet", () => {
  it("is reopened once the list shows it OPEN by its id (re-listed PAUSED first)", async () => {
    const h = new Harness({ markets: 1, latencyMs: 50, options: { marketRecheckMs: RECHECK_MS } });
    const listed: { current: ListedMarketStatus | undefined } = { current: undefined };
    const a = await lostThenListed(h, listed);
    listed.current = { marketId: "m1", slug: NEW_SLUG, status: "PAUSED" };
    await h.run(2 * RECHECK_MS);
    expect(h.botQuotes(a)).toEqual([]);
    listed.current = { marketId: "m1", slug: NEW_SLUG, status: "OPEN" };
    await h.run(4 * RECHECK_MS);
    expect(h.botQuotes(a)).toHaveLength(2);
  });

  it("does not count its old slug's 404 as a failing status read (no MmMarketStatusReadsFailing)", async () => {
    const h = new Harness({ markets: 1, latencyMs: 50, options: { marketRecheckMs: RECHECK_MS } });
    const listed: { current: ListedMarketStatus | undefined } = { current: undefined };
    const slugs: string[] = [];
    await lostThenListed(h, listed, slugs);
    listed.current = { marketId: "m1", slug: NEW_SLUG, status: "PRE_MARKET" };
    await h.run(10 * RECHECK_MS);
    expect(lines(h, "keeps failing to read")).toEqual([]);
    expect(closedGauge(h).filter((n) => n > 0)).toEqual([]);
    // Its record taken by the new slug (not on the list's word), and read by it from then on (the
    // watch's read of a round may come before the sweep's list, by the old slug: a NOT_FOUND's 404).
    expect(h.logs.text()).toContain("market is now PRE_MARKET");
    expect(h.logs.text()).not.toContain(LIST_WORD.listedById);
    expect(slugs.slice(-5)).toEqual(Array(5).fill(NEW_SLUG));
    expect(lines(h, "under a new slug")).toHaveLength(1);
  });
});

describe("a quoted market back under a new slug", () => {
  it("is confirmed paused and reopened by its record under the new slug", async () => {
    const h = new Harness({ markets: 2, latencyMs: 50, options: { marketRecheckMs: RECHECK_MS } });
    const listed: { current: ListedMarketStatus | undefined } = {
      current: { marketId: "m1", slug: NEW_SLUG, status: "OPEN" },
    };
    const slugs: string[] = [];
    renamedRecord(h, listed, slugs);
    const { a } = await twoQuoted(h);
    await h.run(RECHECK_MS); // the list shows m1 under its new slug (m2 not listed: read, a 404)
    listed.current = { marketId: "m1", slug: NEW_SLUG, status: "PAUSED" };
    await h.run(RECHECK_MS);
    expect(h.botQuotes(a)).toEqual([]);
    // Held on its record's word, read by the new slug: not on the list's (its record unreadable).
    expect(lines(h, "market is now PAUSED")).toHaveLength(1);
    expect(lines(h, LIST_WORD.unreadable)).toEqual([]);
    listed.current = { marketId: "m1", slug: NEW_SLUG, status: "OPEN" };
    await h.run(2 * RECHECK_MS);
    expect(h.botQuotes(a)).toHaveLength(2);
    expect(lines(h, "keeps failing to read")).toEqual([]);
  });
});
