import { describe, expect, it } from "vitest";
import { startDaemon } from "../../../src/app/daemon.js";
import type { CollectingStream } from "../../support/collecting-stream.js";
import { manyMarkets, seedAll } from "./many-markets.js";
import {
  daemonConfig,
  daemonSlots,
  market,
  memoryLogger,
  openOnMock,
  startMock,
  waitFor,
} from "./support.js";

/** 5 markets, 10 tokens: every book resyncs when /ws/market drops. */
const SCENARIO5 = manyMarkets(5);
const MARKETS = SCENARIO5.markets.map((m) => market(m.slug, SCENARIO5));
const TOKENS = MARKETS.flatMap((m) => [m.yesTokenId, m.noTokenId]);

const slots = daemonSlots();

/** The info-and-above lines whose message starts with `prefix`. */
function lines(sink: CollectingStream, prefix: string): Record<string, unknown>[] {
  return sink.records().filter((r) => String(r.msg).startsWith(prefix) && Number(r.level) >= 30);
}

describe("daemon log after a /ws/market reconnect", () => {
  it("says that every book resyncs in one warn line and that they recovered in one info line, not two lines per token", async () => {
    const m = await startMock(SCENARIO5);
    slots.mock = m;
    seedAll(m, SCENARIO5);
    const { logger, sink } = memoryLogger("info");
    slots.daemon = await startDaemon(
      daemonConfig(
        m,
        MARKETS.map((x) => x.slug),
        {},
        SCENARIO5,
      ),
      { logger },
    );
    await waitFor(() => TOKENS.every((t) => openOnMock(m, t).length > 0), 8_000, "quotes on 10 tokens");
    expect(lines(sink, "risk: ")).toEqual([]);

    m.admin.dropAllSockets("market");
    // Old code: one `risk: cleared` per token; new code: one `books recovered` line.
    await waitFor(
      () => lines(sink, "books recovered").length > 0 || lines(sink, "risk: cleared").length >= TOKENS.length,
      8_000,
      "the books' recovery",
    );
    await new Promise((r) => setTimeout(r, 200));

    expect(lines(sink, "risk: book_resyncing")).toHaveLength(0);
    expect(lines(sink, "risk: cleared")).toHaveLength(0);
    const resync = lines(sink, "books resyncing");
    expect(resync).toHaveLength(1);
    expect(resync[0]).toMatchObject({ level: 40, books: TOKENS.length, reason: "resubscribed" });
    const recovered = lines(sink, "books recovered");
    expect(recovered).toHaveLength(1);
    expect(recovered[0]).toMatchObject({ level: 30, books: TOKENS.length });
    expect(typeof recovered[0]?.durationMs).toBe("number");
    expect(lines(sink, "books not recovered")).toHaveLength(0);
    // Quoting resumed on every book.
    await waitFor(() => TOKENS.every((t) => openOnMock(m, t).length > 0), 5_000, "quotes again");
  });
});
