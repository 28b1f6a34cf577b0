import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { parseReplayConfig } from "../../../src/backtest/replay/replay-config.js";
import { runBacktest } from "../../../src/backtest/replay/run-backtest.js";
import type { RecordedFrame } from "../../../src/recorded/format.js";
import { churn, type Mock, market, settle, startMock } from "../gateway/harness.js";
import { readAll, startRecording, withoutCarried } from "./record-io.js";

/*
 * s18 recfix: a rotated file replayed alone did not know of a pause or a resolution recorded in an
 * earlier file (README: "replay the directory"): it quoted a paused market and marked a resolved
 * one at its last mid. `mm record` now writes the lifecycle state it has recorded at the head of
 * each rotated file ("sid": "carry"); the replay acts on those frames only when they tell it
 * something new, so the directory replays exactly as without them.
 */

const root = mkdtempSync(join(tmpdir(), "mm-rec-carry-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let mock: Mock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const BANDS = { name: "bands", params: { bands: [{ margin: "0.01", size: "10" }] } };

describe("mm record carries the lifecycle into rotated files", () => {
  it("a rotated file replayed alone gates a market paused and marks one resolved in an earlier file; the directory replays as before", async () => {
    mock = await startMock();
    const [paused, resolved, busy] = [0, 1, 2].map((i) => market(mock as Mock, i));
    if (paused === undefined || resolved === undefined || busy === undefined) throw new Error("markets");
    for (const [i, m] of [paused, resolved, busy].entries()) churn(mock, m, 30, i + 1);
    const tokens = [paused, resolved, busy].flatMap((m) => [m.yesTokenId, m.noTokenId]);
    const { out, err, ac, running } = await startRecording(mock, root, [
      ...["--tokens", tokens.join(","), "--out", "carry"],
      ...["--rotate-minutes", "0.01"], // 600 ms files
    ]);
    await settle(500); // the markets' condition_lifecycle follows their first frames
    mock.admin.pauseMarket(paused.id);
    mock.admin.resolveMarket(resolved.id, "YES");
    // Book changes of the third market: frames that rotate the files past the pause and resolution.
    for (let i = 0; i < 10; i++) {
      await settle(200);
      churn(mock, busy, 4, 10 + i);
    }
    await settle(300);
    ac.abort();
    expect(await running, err.join("")).toBe(0);
    const summary = JSON.parse(out.join("")) as { outDir: string; files: string[]; carried: number };
    expect(summary.files.length).toBeGreaterThanOrEqual(3);
    // The file after the pause and the resolution with the most frames (the last may hold a few).
    const files = await Promise.all(summary.files.map((f) => readAll([f])));
    const pushed = (type: string) =>
      files.findIndex((f) => f.some((r) => r.frame.type === type && r.frame.sid !== "carry"));
    const after = Math.max(pushed("market_paused"), pushed("market_resolved")) + 1;
    expect(after).toBeGreaterThan(0);
    expect(files.length).toBeGreaterThan(after);
    const k = files.reduce(
      (best, f, i) => (i >= after && f.length > (files[best]?.length ?? 0) ? i : best),
      after,
    );
    const file = summary.files[k] as string;
    const recs = files[k] as RecordedFrame[];
    const head = recs.filter((r) => r.frame.sid === "carry");
    const said = (conditionId: string | undefined) =>
      head.filter((r) => r.frame.id === conditionId?.toLowerCase()).map((r) => r.frame.data);
    expect(said(paused.conditionId)).toEqual([expect.objectContaining({ status: "PAUSED" })]);
    expect(said(resolved.conditionId)).toEqual([
      expect.objectContaining({ payouts: { "0": "1", "1": "0" } }),
    ]);
    expect(head.every((r) => r.frame.via === "rotation" && r.recvTs === recs[0]?.recvTs)).toBe(true);
    expect(recs.slice(0, head.length)).toEqual(head); // at the head of the file
    expect(summary.carried).toBeGreaterThanOrEqual(head.length);

    const config = parseReplayConfig([{ strategy: BANDS }]);
    const byToken = (s: { tokens: { tokenId: string; mark: string | null; quoteUptime: number | null }[] }) =>
      new Map(s.tokens.map((t) => [t.tokenId, t]));

    // A file after them alone: the paused market is never quoted, the resolved one marked at its payouts.
    const alone = (await runBacktest({ config, data: file })).summary;
    const a = byToken(alone);
    expect(alone.data.carried).toBeGreaterThanOrEqual(2);
    expect([a.get(paused.yesTokenId)?.quoteUptime, a.get(paused.noTokenId)?.quoteUptime]).toEqual([0, 0]);
    expect(a.get(busy.yesTokenId)?.quoteUptime).toBeGreaterThan(0);
    expect([a.get(resolved.yesTokenId)?.mark, a.get(resolved.noTokenId)?.mark]).toEqual(["1", "0"]);

    // The same file as recorded before: the pause and the resolution unknown.
    const [bare] = await withoutCarried([file], join(root, "bare-last"));
    const before = (await runBacktest({ config, data: bare as string })).summary;
    const b = byToken(before);
    expect(before.data.carried).toBeUndefined();
    expect(b.get(paused.yesTokenId)?.quoteUptime).toBeGreaterThan(0);
    expect([b.get(resolved.yesTokenId)?.mark, b.get(resolved.noTokenId)?.mark]).not.toEqual(["1", "0"]);

    // The whole directory: the carried frames repeat what the replay knows; not one figure moves.
    await withoutCarried(summary.files, join(root, "bare-dir"));
    const dir = (await runBacktest({ config, data: summary.outDir })).summary;
    const dirBefore = (await runBacktest({ config, data: join(root, "bare-dir") })).summary;
    expect(dir).toEqual(dirBefore);
    expect(dir.data.carried).toBeUndefined();
  }, 60_000);

  /*
   * s19 reccarry: `payouts` is optional on market_resolved, and only the last resolution was
   * carried: one with payouts then one without (a re-push) left a rotated file replayed alone with
   * the market settled but unmarked, where the whole directory marked it at the payouts.
   */
  it("a rotated file after a resolution with payouts and a repeat without them replays alone at the payouts", async () => {
    mock = await startMock();
    const [resolved, busy] = [0, 1].map((i) => market(mock as Mock, i));
    if (resolved === undefined || busy === undefined) throw new Error("markets");
    for (const [i, m] of [resolved, busy].entries()) churn(mock, m, 30, i + 1);
    const tokens = [resolved, busy].flatMap((m) => [m.yesTokenId, m.noTokenId]);
    const { out, err, ac, running } = await startRecording(mock, root, [
      ...["--tokens", tokens.join(","), "--out", "carry-paid"],
      ...["--rotate-minutes", "0.01"], // 600 ms files
    ]);
    await settle(500); // the market's condition_lifecycle follows its first frames
    mock.admin.resolveMarket(resolved.id, "YES");
    await settle(100);
    mock.gateways.publishMarketLifecycle(resolved.conditionId, {
      type: "market_resolved",
      resolution: "YES",
    });
    for (let i = 0; i < 10; i++) {
      await settle(200);
      churn(mock, busy, 4, 10 + i);
    }
    await settle(300);
    ac.abort();
    expect(await running, err.join("")).toBe(0);
    const summary = JSON.parse(out.join("")) as { outDir: string; files: string[] };
    const files = await Promise.all(summary.files.map((f) => readAll([f])));
    const resolutions = (f: RecordedFrame[]) =>
      f.filter((r) => r.frame.type === "market_resolved" && r.frame.sid !== "carry");
    // The two pushes, as recorded: the payouts, then the repeat without them.
    expect(files.flatMap(resolutions).map((r) => (r.frame.data as { payouts?: unknown }).payouts)).toEqual([
      { "0": "1", "1": "0" },
      undefined,
    ]);
    const after = files.findLastIndex((f) => resolutions(f).length > 0) + 1;
    expect(files.length).toBeGreaterThan(after);
    const k = files.reduce(
      (best, f, i) => (i >= after && f.length > (files[best]?.length ?? 0) ? i : best),
      after,
    );
    const config = parseReplayConfig([{ strategy: BANDS }]);
    const marks = (s: { tokens: { tokenId: string; mark: string | null }[] }) =>
      [resolved.yesTokenId, resolved.noTokenId].map((t) => s.tokens.find((x) => x.tokenId === t)?.mark);
    const alone = (await runBacktest({ config, data: summary.files[k] as string })).summary;
    expect(marks(alone)).toEqual(["1", "0"]);
    // Its head: the payouts' frame, then the repeat (the replay alone skips it: RESOLVED is known).
    const head = (files[k] as RecordedFrame[])
      .filter((r) => r.frame.sid === "carry" && r.frame.id === resolved.conditionId.toLowerCase())
      .map((r) => [r.frame.type, (r.frame.data as { payouts?: unknown }).payouts]);
    expect(head).toEqual([
      ["market_resolved", { "0": "1", "1": "0" }],
      ["market_resolved", undefined],
    ]);
    const dir = (await runBacktest({ config, data: summary.outDir })).summary;
    expect(marks(dir)).toEqual(["1", "0"]);
    // The whole directory replays as without the carried frames.
    await withoutCarried(summary.files, join(root, "bare-paid"));
    expect(dir).toEqual((await runBacktest({ config, data: join(root, "bare-paid") })).summary);
  }, 60_000);
});
