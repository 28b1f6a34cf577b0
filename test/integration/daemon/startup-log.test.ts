import { describe, expect, it } from "vitest";
import { startDaemon } from "../../../src/app/daemon.js";
import type { CollectingStream } from "../../support/collecting-stream.js";
import {
  daemonConfig,
  daemonSlots,
  market,
  memoryLogger,
  openOnMock,
  rest,
  seedMarket,
  startMock,
  waitFor,
} from "./support.js";

const ARG = market("arg-vs-fra-final-arg-win");
const FRA = market("arg-vs-fra-final-fra-win");
/** PAUSED in the default scenario: its gate is real at start. */
const EXTRA = market("arg-vs-fra-final-extra-time");

const slots = daemonSlots();

/** The info-and-above lines of `msg` (optionally of one token). */
function lines(sink: CollectingStream, msg: string, tokenId?: string): Record<string, unknown>[] {
  return sink
    .records()
    .filter(
      (r) => r.msg === msg && (tokenId === undefined || r.tokenId === tokenId) && Number(r.level) >= 30,
    );
}

describe("daemon start-up log: waiting for the first snapshots is routine, a later resync is news", () => {
  it("logs no book_resyncing / cleared line at start, the closed market's gate once, a later gap's resync and recovery once each", async () => {
    const m = await startMock();
    slots.mock = m;
    seedMarket(m, ARG, "0.50", "0.60");
    seedMarket(m, FRA, "0.30", "0.40");
    expect(EXTRA.status).not.toBe("OPEN");
    const { logger, sink } = memoryLogger("info");
    slots.daemon = await startDaemon(daemonConfig(m, [ARG.slug, FRA.slug, EXTRA.slug]), { logger });
    const quoted = [ARG.yesTokenId, ARG.noTokenId, FRA.yesTokenId, FRA.noTokenId];
    await waitFor(() => quoted.every((t) => openOnMock(m, t).length > 0), 5_000, "quotes on 4 tokens");

    expect(lines(sink, "risk: book_resyncing")).toHaveLength(0);
    expect(lines(sink, "risk: book_stale")).toHaveLength(0);
    expect(lines(sink, "risk: cleared")).toHaveLength(0);
    const notOpen = lines(sink, "risk: market_not_open");
    expect(notOpen.map((r) => r.marketId)).toEqual([EXTRA.id]);
    // Named as the operator configured it, not only by the exchange's id.
    expect(notOpen.map((r) => r.slug)).toEqual([EXTRA.slug]);

    // A gap on a book that had been synced: news, logged once; its recovery once.
    const yes = ARG.yesTokenId;
    m.admin.skipSeq(yes);
    rest(m, ARG, "buy", "0.45", "10", "YES");
    await waitFor(() => lines(sink, "risk: cleared", yes).length > 0, 5_000, "the book's recovery");
    await new Promise((r) => setTimeout(r, 200));
    expect(lines(sink, "risk: book_resyncing", yes).map((r) => r.slug)).toEqual([ARG.slug]);
    expect(lines(sink, "risk: cleared", yes)).toHaveLength(1);
    expect(lines(sink, "risk: book_resyncing")).toHaveLength(1);
  });
});
