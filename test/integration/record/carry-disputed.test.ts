import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { parseReplayConfig } from "../../../src/backtest/replay/replay-config.js";
import { runBacktest } from "../../../src/backtest/replay/run-backtest.js";
import { churn, type Mock, market, settle, startMock } from "../gateway/harness.js";
import { readAll, startRecording, withoutCarried } from "./record-io.js";

/*
 * Review s19 (r2rec): LifecycleCarry heads a rotated file with a market's last resolution with
 * payouts, then its last lifecycle frame when that is another. The replay of the WHOLE directory
 * skips a carried frame only when it adds nothing to the state it knows (LifecycleMemory.adds:
 * same status, payouts known). A market resolved with payouts and then DISPUTED (the spec lists
 * the status, its transitions "not shown"; a resolution disputed after it is announced is the
 * ordinary case for a dispute) leaves the replay knowing status DISPUTED: the carried
 * resolution's RESOLVED differs, so the whole-directory replay acts on it again at every rotation —
 * the market is set RESOLVED (payouts marked and handed to the engine again), then DISPUTED again
 * by the next carried frame. format.ts says of carried frames "replaying the whole directory,
 * never" and README "the directory replays exactly as without them"; here (5 files) data.carried
 * is 6, data.frames 84 against 78, data.lifecycle 13 against 7. (Before this session the same happened with the last bare resolution;
 * the change now re-acts with the payouts.) Pinned: the whole directory replays as it does with the
 * carried frames removed.
 */

const root = mkdtempSync(join(tmpdir(), "mm-review-r2rec-carry-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let mock: Mock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const BANDS = { name: "bands", params: { bands: [{ margin: "0.01", size: "10" }] } };

describe("the whole directory after a resolution that is then disputed", () => {
  it("skips the carried frames: replays as without them", async () => {
    mock = await startMock();
    const [disputed, busy] = [0, 1].map((i) => market(mock as Mock, i));
    if (disputed === undefined || busy === undefined) throw new Error("markets");
    for (const [i, m] of [disputed, busy].entries()) churn(mock, m, 30, i + 1);
    const tokens = [disputed, busy].flatMap((m) => [m.yesTokenId, m.noTokenId]);
    const { out, err, ac, running } = await startRecording(mock, root, [
      ...["--tokens", tokens.join(","), "--out", "carry-disputed"],
      ...["--rotate-minutes", "0.01"], // 600 ms files
    ]);
    await settle(500);
    mock.admin.resolveMarket(disputed.id, "YES");
    await settle(100);
    mock.gateways.publishMarketLifecycle(disputed.conditionId, { type: "market_status", status: "DISPUTED" });
    for (let i = 0; i < 10; i++) {
      await settle(200);
      churn(mock, busy, 4, 10 + i);
    }
    await settle(300);
    ac.abort();
    expect(await running, err.join("")).toBe(0);
    const summary = JSON.parse(out.join("")) as { outDir: string; files: string[] };
    const files = await Promise.all(summary.files.map((f) => readAll([f])));
    // Some rotated file is headed by the resolution and the dispute.
    const heads = files.map((f) =>
      f
        .filter((r) => r.frame.sid === "carry" && r.frame.id === disputed.conditionId.toLowerCase())
        .map((r) => r.frame.type),
    );
    expect(heads.some((h) => h.includes("market_resolved") && h.includes("market_status"))).toBe(true);

    const config = parseReplayConfig([{ strategy: BANDS }]);
    const dir = (await runBacktest({ config, data: summary.outDir })).summary;
    await withoutCarried(summary.files, join(root, "bare-disputed"));
    const bare = (await runBacktest({ config, data: join(root, "bare-disputed") })).summary;
    expect(dir.data.carried).toBeUndefined();
    expect(dir).toEqual(bare);
  }, 60_000);
});
