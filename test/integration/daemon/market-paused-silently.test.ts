import { describe, expect, it } from "vitest";
import { startDaemon } from "../../../src/app/daemon.js";
import {
  daemonConfig,
  daemonSlots,
  logged,
  market,
  memoryLogger,
  openOnMock,
  seedMarket,
  startMock,
  waitFor,
} from "./support.js";

const ARG = market("arg-vs-fra-final-arg-win");
const FRA = market("arg-vs-fra-final-fra-win");
/** engine.marketRecheckMs here (its minimum): the open-market sweep's and the closed-market watch's period. */
const RECHECK_MS = 1_000;
/** One period, plus the read, the cancels and their answers on a loaded machine. */
const WITHIN_MS = RECHECK_MS + 2_000;

const slots = daemonSlots();

/*
 * A market paused with no condition_lifecycle push (the spec: most are not yet emitted) on a book
 * that never moves (the mock's flow off). Before, nothing told mm: no requote, so no refusal, and its
 * quotes rested at pre-pause prices through the pause and were stale at the resume. The open-market
 * sweep reads GET /api/markets every engine.marketRecheckMs and holds the market; the closed-market
 * watch reopens it.
 */
describe("a quoted market paused silently on a static book", () => {
  it("has its quotes cancelled within one recheck period, and is quoted again after the resume", async () => {
    const m = await startMock();
    slots.mock = m;
    seedMarket(m, ARG, "0.50", "0.60");
    seedMarket(m, FRA, "0.30", "0.40");
    const { logger, sink } = memoryLogger("info");
    slots.daemon = await startDaemon(
      daemonConfig(m, [ARG.slug, FRA.slug], { MM_ENGINE_MARKET_RECHECK_MS: String(RECHECK_MS) }),
      { logger },
    );
    const onArg = () => openOnMock(m, ARG.yesTokenId).length + openOnMock(m, ARG.noTokenId).length;
    const onFra = () => openOnMock(m, FRA.yesTokenId).length + openOnMock(m, FRA.noTokenId).length;
    await waitFor(() => onArg() > 0 && onFra() > 0, 3_000, "both markets quoted");
    await new Promise((r) => setTimeout(r, 300));
    const fraQuotes = onFra();

    m.admin.silenceLifecycle(true);
    const pausedAt = Date.now();
    m.admin.pauseMarket(ARG.id);
    await waitFor(() => onArg() === 0, WITHIN_MS, "the paused market's quotes cancelled");
    const pulledMs = Date.now() - pausedAt;
    expect(pulledMs).toBeLessThan(WITHIN_MS);
    await logged(sink, "market is now PAUSED (its record, read by the open-market sweep)");
    expect(sink.text()).not.toContain("market refused a placement");
    expect(onFra()).toBe(fraQuotes);

    // Held, not probed: nothing placed there while paused.
    await new Promise((r) => setTimeout(r, 2 * RECHECK_MS));
    expect(onArg()).toBe(0);

    const resumedAt = Date.now();
    m.admin.resumeMarket(ARG.id);
    await waitFor(() => onArg() > 0, WITHIN_MS, "quoted again after the silent resume");
    expect(Date.now() - resumedAt).toBeLessThan(WITHIN_MS);
    await logged(sink, "market is now OPEN (its record, read while it was closed)");
  });
});
