import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { parseReplayConfig } from "../../../src/backtest/replay/replay-config.js";
import { runBacktest } from "../../../src/backtest/replay/run-backtest.js";
import { createRecordCommand } from "../../../src/cli/record.js";
import { type RecordedFrame, RecordedWriter } from "../../../src/recorded/format.js";
import { churn, type Mock, market, settle, startMock } from "../gateway/harness.js";
import { readAll, recordIo, startRecording } from "./record-io.js";

/*
 * review17-rec: `mm backtest --data` acts on recorded condition_lifecycle frames (market_paused,
 * market_resolved: the venue refuses placements, positions are marked at the payouts) and on
 * system/platform_status (freeze) — src/backtest/sim/lifecycle.ts. `mm record` could only
 * subscribe token channels, so a recording across a pause, a resolution or a freeze held none of
 * it: the replay kept the market OPEN, quoted through the pause, and marked a resolved position at
 * its last mid instead of its payout. It now subscribes condition_lifecycle for the tokens'
 * markets (learned from their frames) and system/platform_status by default.
 */

const root = mkdtempSync(join(tmpdir(), "mm-rec-life-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let mock: Mock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const BANDS = { name: "bands", params: { bands: [{ margin: "0.01", size: "10" }] } };

/** Records the first open market while `act` runs; returns the summary and the frames. */
async function recordWhile(args: string[], act: (m: ReturnType<typeof market>) => Promise<void>) {
  mock = await startMock();
  const m = market(mock);
  churn(mock, m, 40, 1);
  const tokens = `${m.yesTokenId},${m.noTokenId}`;
  const { out, err, ac, running } = await startRecording(mock, root, ["--tokens", tokens, ...args]);
  await act(m);
  ac.abort();
  expect(await running, err.join("")).toBe(0);
  const summary = JSON.parse(out.join("")) as { outDir: string; files: string[]; conditions: number };
  return { m, summary, recs: await readAll(summary.files), err };
}

const lifecycleTypes = (recs: readonly RecordedFrame[]) =>
  [...new Set(recs.map((r) => r.frame.type))]
    .filter((t) => t.startsWith("market_") || t === "platform_status")
    .sort();

describe("mm record and the markets' lifecycle", () => {
  it("a recording across a pause, a freeze and a resolution carries their pushes for the replay", async () => {
    const { m, summary, recs } = await recordWhile(["--out", "life"], async (m) => {
      await settle(100);
      (mock as Mock).admin.pauseMarket(m.id);
      await settle(100);
      (mock as Mock).admin.resumeMarket(m.id);
      (mock as Mock).admin.freezePlatform(true);
      await settle(100);
      (mock as Mock).admin.freezePlatform(false);
      (mock as Mock).admin.resolveMarket(m.id, "YES");
      await settle(300);
    });
    const types = new Set(recs.map((r) => r.frame.type));
    expect(types.has("book_snapshot")).toBe(true); // the recording itself works
    expect(lifecycleTypes(recs)).toEqual(
      expect.arrayContaining(["market_paused", "market_resolved", "market_unpaused", "platform_status"]),
    );
    expect(summary.conditions).toBe(1); // both tokens are of one market
    const paused = recs.find((r) => r.frame.type === "market_paused");
    expect(paused?.frame).toMatchObject({ channel: "condition_lifecycle", id: m.conditionId?.toLowerCase() });
    const frozen = recs.filter((r) => r.frame.type === "platform_status").map((r) => r.frame.data);
    expect(frozen).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ frozen: true }),
        expect.objectContaining({ frozen: false }),
      ]),
    );
  });

  it("mm backtest on the recording: the venue refuses during the pause, positions are marked at the payouts", async () => {
    const { summary, recs } = await recordWhile(["--out", "replay"], async (m) => {
      await settle(200);
      churn(mock as Mock, m, 20, 2);
      // The bot's requote to these book changes reaches the venue (entryMs below) after the pause.
      (mock as Mock).admin.pauseMarket(m.id);
      await settle(400);
      (mock as Mock).admin.resumeMarket(m.id);
      await settle(200);
      churn(mock as Mock, m, 20, 3);
      await settle(200);
      (mock as Mock).admin.resolveMarket(m.id, "YES");
      await settle(200);
    });
    const config = parseReplayConfig([{ strategy: BANDS, latency: { entryMs: 200 } }]);
    const withLifecycle = (await runBacktest({ config, data: summary.outDir })).summary;
    expect(withLifecycle.data.lifecycle).toBeGreaterThanOrEqual(3);
    expect(withLifecycle.orders.rejectCodes.market_not_open ?? 0).toBeGreaterThan(0);
    expect(withLifecycle.tokens.map((t) => [t.outcome, t.mark])).toEqual([
      ["YES", "1"],
      ["NO", "0"],
    ]);

    // The same frames without the lifecycle, as `mm record` wrote them before: nothing refused,
    // the tokens marked at their last mid.
    const bare = join(root, "bare.jsonl.gz");
    const w = RecordedWriter.create(bare);
    for (const r of recs) if (lifecycleTypes([r]).length === 0) await w.write(r);
    await w.close();
    const without = (await runBacktest({ config, data: bare })).summary;
    expect(without.data.lifecycle).toBe(0);
    expect(without.orders.rejectCodes).toEqual({});
    expect(without.tokens.map((t) => t.mark)).not.toEqual(["1", "0"]);
  });

  it("--channels replaces the default: without condition_lifecycle and system nothing of them is recorded", async () => {
    const { summary, recs } = await recordWhile(
      ["--out", "bare", "--channels", "token_book,token_trade_matches"],
      async (m) => {
        await settle(100);
        (mock as Mock).admin.pauseMarket(m.id);
        (mock as Mock).admin.freezePlatform(true);
        await settle(200);
      },
    );
    expect(recs.some((r) => r.frame.type === "book_snapshot")).toBe(true);
    expect(lifecycleTypes(recs)).toEqual([]);
    expect(summary.conditions).toBe(0);
  });

  it("--channels condition_lifecycle without a token channel is bad usage (its markets come from the tokens' frames)", async () => {
    mock = await startMock();
    const { io } = recordIo(mock, root);
    const cmd = createRecordCommand({ signal: AbortSignal.abort() });
    await expect(
      cmd.run(["--tokens", "12", "--out", "x", "--channels", "condition_lifecycle,system"], io),
    ).rejects.toThrow(/condition_lifecycle needs one of token_book/);
    const help = recordIo(mock, root);
    expect(await cmd.run(["--help"], help.io)).toBe(0);
    expect(help.out.join("")).toContain("default token_book,token_trade_matches,condition_lifecycle,system");
  });
});
