import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, expect, it } from "vitest";
import { createRecordCommand } from "../../../src/cli/record.js";
import { type RecordedFrame, readRecorded } from "../../../src/recorded/format.js";
import { churn, type Mock, market, settle, startMock, until } from "../gateway/harness.js";
import { recordIo } from "../record/record-io.js";

/*
 * review17-rec: `mm backtest --data` acts on recorded condition_lifecycle frames (market_paused,
 * market_resolved: the venue refuses placements, positions are marked at the payouts) and on
 * system/platform_status (freeze) — src/backtest/sim/lifecycle.ts. But `mm record` can only
 * subscribe token channels (RECORDABLE_CHANNELS: token_book, token_trade_matches,
 * token_trade_settlements, token_ohlc), so a recording across a pause, a resolution or a freeze
 * holds none of it: the replay keeps the market OPEN, quotes through the pause, and marks a
 * resolved position at its last mid instead of its payout. The mock pushes all three.
 */

const root = mkdtempSync(join(tmpdir(), "mm-rec-life-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let mock: Mock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

it("a recording across a pause, a freeze and a resolution carries their pushes for the replay", async () => {
  mock = await startMock();
  const m = market(mock);
  churn(mock, m, 40, 1);
  const { io, out, err } = recordIo(mock, root);
  const ac = new AbortController();
  const running = createRecordCommand({ signal: ac.signal }).run(
    ["--tokens", `${m.yesTokenId},${m.noTokenId}`, "--out", "life"],
    io,
  );
  await until(() => err.some((l) => l.includes("recording")), "the recorder to subscribe");
  await settle(100);
  mock.admin.pauseMarket(m.id);
  await settle(100);
  mock.admin.resumeMarket(m.id);
  mock.admin.freezePlatform(true);
  await settle(100);
  mock.admin.freezePlatform(false);
  mock.admin.resolveMarket(m.id, "YES");
  await settle(300);
  ac.abort();
  expect(await running, err.join("")).toBe(0);
  const summary = JSON.parse(out.join("")) as { files: string[] };
  const recs: RecordedFrame[] = [];
  for (const f of summary.files) for await (const r of readRecorded(f)) recs.push(r);
  const types = new Set(recs.map((r) => r.frame.type));
  expect(types.has("book_snapshot")).toBe(true); // the recording itself works
  expect([...types].filter((t) => t.startsWith("market_") || t === "platform_status").sort()).toEqual(
    expect.arrayContaining(["market_paused", "market_resolved", "market_unpaused", "platform_status"]),
  );
});
