import { describe, expect, it } from "vitest";
import { BOT, Harness } from "./support/harness.js";

/**
 * A drift that leaves the wallet none of a token (a redemption's signature), on a market not known
 * settled, is corrected only once a read of the market's record, made for that drift, answered
 * "not settled" (DriftRecordGate, market-record-read.ts): a silent resolution's redemption must not
 * be corrected into inventory. Otherwise such a drift is still corrected at its second sighting, a
 * record that cannot be read holds it back only for RECORD_READS_BEFORE_CORRECTING checks, and other
 * drifts (a fill not settled yet) cost no read at all.
 */
async function startedWithVanishedShares(record: () => Promise<{ status: string }>): Promise<Harness> {
  const h = new Harness({ latencyMs: 50, botShares: "10" }); // 10 of each token held at start
  const [yes, no] = h.tokens();
  h.crowdQuote(yes, "0.48", "0.52");
  h.crowdQuote(no, "0.48", "0.52");
  h.exchange.marketRecord = record;
  const starting = h.engine.start();
  await h.run(500);
  await starting;
  await h.run(1_000);
  // The wallet's 10 YES leave it, and no fill explains it (every share the bot rested asks for is
  // free: cancel them first so the debit can take them).
  h.venue.cancelAll(BOT);
  h.venue.debit(BOT, yes, 10_000_000n);
  return h;
}

describe("settlement: the position check's corrections wait on the market's record", () => {
  it("an OPEN record: the drift is corrected at its second sighting, as without the gate", async () => {
    let reads = 0;
    const h = await startedWithVanishedShares(async () => {
      reads++;
      return { status: "OPEN" };
    });
    await h.run(61_000); // two position checks
    expect(h.engine.positionOf(h.tokens()[0])).toBe(-10_000_000n);
    expect(h.logs.text()).toContain("positions corrected");
    expect(reads).toBe(1); // one read for the one drift
  });

  it("a record that cannot be read: corrected after three failed reads, not held for ever", async () => {
    let reads = 0;
    const h = await startedWithVanishedShares(async () => {
      reads++;
      throw new Error("503 exchange_unavailable");
    });
    await h.run(91_000); // three checks, three failed reads: held
    expect(h.engine.positionOf(h.tokens()[0])).toBe(0n);
    expect(reads).toBe(3);
    await h.run(30_000); // the fourth check corrects it
    expect(h.engine.positionOf(h.tokens()[0])).toBe(-10_000_000n);
    expect(reads).toBe(3);
  });

  it("a drift the wallet still holds shares after (a fill not settled yet, a missed one) costs no read", async () => {
    let reads = 0;
    const h = await startedWithVanishedShares(async () => {
      reads++;
      return { status: "OPEN" };
    });
    const [yes, no] = h.tokens();
    // NO drifts too, differently at every check (shares arriving one at a time).
    for (let i = 0; i < 3; i++) {
      h.venue.credit(BOT, no, 1_000_000n);
      await h.run(30_000);
    }
    expect(h.engine.positionOf(yes)).toBe(-10_000_000n);
    expect(h.engine.positionOf(no)).toBe(0n);
    expect(reads).toBe(1); // YES's drift to none, once
  });
});
