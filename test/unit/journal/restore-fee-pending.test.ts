import { describe, expect, it } from "vitest";
import { EMPTY_ACCOUNT } from "../../../src/execution/inventory-math.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { FEE_PENDING_WINDOW_MS, readRestore } from "../../../src/journal/restore.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import { ACCOUNT, fill, journalPath } from "./support.js";

const T = Date.UTC(2025, 5, 1, 12);

describe("readRestore: fills still waiting for their fee", () => {
  it("carries earlier runs' recent fills of the account that have no fee row, oldest first", () => {
    const db = openJournalDb(journalPath());
    const w = new JournalWriter(db);
    const begin = (account: string, atMs: number) => w.beginRun({ account, session: "s", atMs, tokens: [] });
    const fillWithAccount = (run: number, f: ReturnType<typeof fill>) =>
      w.batch(() => {
        w.fill(run, f, "stream");
        w.account(run, f.tsMs, "fill", f.tokenId, EMPTY_ACCOUNT, undefined);
      });

    const r1 = begin(ACCOUNT, T - FEE_PENDING_WINDOW_MS - 60_000);
    fillWithAccount(r1, fill({ tradeId: "old", tsMs: T - FEE_PENDING_WINDOW_MS - 1 })); // before the window
    fillWithAccount(r1, fill({ tradeId: "a", tsMs: T - 5_000, clientOrderId: undefined }));
    fillWithAccount(r1, fill({ tradeId: "b", tsMs: T - 9_000, side: "sell", priceMicro: 530_000 }));
    fillWithAccount(r1, fill({ tradeId: "c", tsMs: T - 7_000 }));
    w.fee(fill({ tradeId: "c", tsMs: T - 7_000 }), { asset: "usdc", amountMicro: 0n }, T - 6_000); // settled
    w.endRun(r1, T - 4_000, "SIGTERM", 0);
    // Another wallet in the same file: never ours.
    const other = begin("http://127.0.0.1:1|0xdef", T - 3_000);
    fillWithAccount(other, fill({ tradeId: "x", tsMs: T - 3_000 }));
    const r2 = begin(ACCOUNT, T);
    // This run's own fills are not an earlier run's.
    fillWithAccount(r2, fill({ tradeId: "now", tsMs: T + 1 }));

    const r = readRestore(db, ACCOUNT, r2);
    expect(r.feePending).toEqual([
      fill({ tradeId: "b", tsMs: T - 9_000, side: "sell", priceMicro: 530_000 }),
      fill({ tradeId: "a", tsMs: T - 5_000, clientOrderId: undefined }),
    ]);
    db.close();
  });
});
