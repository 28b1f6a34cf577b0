import { describe, expect, it } from "vitest";
import type { TokenAccount } from "../../../src/execution/inventory-math.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { readRestore } from "../../../src/journal/restore.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import { ACCOUNT, journalPath } from "./support.js";

/**
 * A market listed settled at start without its payouts has no book to mark a restored position:
 * the journal hands the engine each token's last journaled mark instead. A run journals a token's
 * mark with its snapshots only, and its restore row and the fill rows before its first snapshot
 * carry none: the last mark is the newest row that has one, not the newest row (a crash loop
 * whose runs never reach a snapshot must not lose it).
 */
const long = (size: bigint): TokenAccount => ({
  sizeMicro: size,
  costPico: size * 470_000n,
  realisedPico: 0n,
  feesPico: 0n,
  feeSharesMicro: 0n,
});

describe("readRestore: each token's last journaled mark", () => {
  it("is the newest row with a mark of the account's runs, across a restart that journaled none", () => {
    const db = openJournalDb(journalPath());
    const w = new JournalWriter(db);
    const begin = (account = ACCOUNT) => w.beginRun({ account, session: "s", atMs: 1, tokens: [] });
    const r1 = begin();
    w.account(r1, 2, "fill", "t1", long(20_000_000n), undefined);
    w.account(r1, 3, "snapshot", "t1", long(20_000_000n), 500_000);
    w.account(r1, 4, "snapshot", "t1", long(20_000_000n), 430_000);
    w.account(r1, 4, "fill", "t2", long(5_000_000n), undefined); // never marked
    // Another wallet's mark of the same token is not ours.
    const other = begin("http://127.0.0.1:2|0xdef");
    w.account(other, 5, "snapshot", "t1", long(1_000_000n), 990_000);
    // Run 2 restored the account and was killed before its first snapshot.
    const r2 = begin();
    w.account(r2, 6, "restore", "t1", long(20_000_000n), undefined);
    const r3 = begin();

    const r = readRestore(db, ACCOUNT, r3);
    expect(r.marks).toEqual(new Map([["t1", 430_000]]));
    expect(readRestore(db, ACCOUNT, r1).marks).toEqual(new Map());
    db.close();
  });
});
