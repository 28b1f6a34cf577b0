import { describe, expect, it } from "vitest";
import { attachMirror } from "../../../src/backtest/replay/attach-mirror.js";
import { BOT } from "../../../src/backtest/sim/actors.js";
import { oneTokenSession } from "./support/one-token-session.js";

/*
 * A frame with malformed entries is not applied at the exchange (ExchangeBooks.apply is false,
 * counted in books.malformed): bookApplied must not fire for it, or run-backtest would count the
 * token as booked (no tokensWithoutBook) and the report's recorder would mark on it.
 */
const TOKEN = "777";
const snap = (seq: number, asks: { price: string; size: string }[]) => ({
  type: "book_snapshot",
  sid: 1,
  channel: "token_book",
  id: TOKEN,
  data: { tokenId: TOKEN, tsMs: 1, seq, bids: [{ price: "0.48", size: "100" }], asks },
});

describe("SimSession: a snapshot the exchange could not apply (malformed entries)", () => {
  it("fires no bookApplied, and takes nothing back from the bot", async () => {
    const { session, markets } = oneTokenSession(TOKEN, { margin: "0.2", size: "1" });
    const { mirror } = attachMirror(session, markets, undefined);
    const applied: string[] = [];
    session.bookApplied.push((t) => applied.push(t));
    await session.start();
    session.marketFrame(snap(1, [{ price: "0.52", size: "20" }]));
    // The bot takes the 20 at 0.52 (as the venue exchange would send it: the mirror hears first).
    mirror.beforeBotPlace("0x01", "YES", "buy", 520_000n);
    const r = session.venue.place({
      wallet: BOT,
      marketId: "0x01",
      outcome: "YES",
      side: "buy",
      price: 520_000n,
      quantity: 20_000_000n,
      timeInForce: "ioc",
    });
    expect(r.filledQty).toBe(20_000_000n);
    expect(mirror.crowdSize(TOKEN, "sell", 520_000n)).toBe(0n);
    // A snapshot whose entries the exchange's book refuses: nothing applied.
    session.marketFrame(snap(2, [{ price: "0.52", size: "lots" }]));
    expect(session.books.malformed).toBe(1);
    expect(mirror.crowdSize(TOKEN, "sell", 520_000n)).toBe(0n);
    expect(applied).toEqual([TOKEN]); // the first snapshot only
    await session.finish();
  });
});
