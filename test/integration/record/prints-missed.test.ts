import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { parseReplayConfig } from "../../../src/backtest/replay/replay-config.js";
import { runBacktest } from "../../../src/backtest/replay/run-backtest.js";
import { RecordedWriter } from "../../../src/recorded/format.js";
import { churn, type Mock, market, settle, startMock, until } from "../gateway/harness.js";
import { readAll, startRecording } from "./record-io.js";

/*
 * s18 recfix: the trade prints (token_trade_matches) made while the recorder's connection was
 * down are lost (the exchange does not replay them), and nothing said so: a replay's fill model
 * took the stretch for a market without trades. The recorder now writes a `prints_missed` frame
 * per token once its prints flow again (sid "gap", data {tokenId, fromMs, toMs}); the replay lists
 * those stretches in `data.printsMissed` and simulates nothing from them.
 */

const root = mkdtempSync(join(tmpdir(), "mm-rec-missed-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let mock: Mock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

describe("mm record: prints lost to a reconnect", () => {
  it("are marked per token (from the link's last frame to the resubscribe) and listed by the replay", async () => {
    mock = await startMock();
    const m = market(mock);
    churn(mock, m, 40, 1);
    const tokens = `${m.yesTokenId},${m.noTokenId}`;
    const { out, err, ac, running } = await startRecording(mock, root, [
      "--tokens",
      tokens,
      "--out",
      "missed",
    ]);
    churn(mock, m, 40, 2);
    await settle(300);
    const dropAt = Date.now();
    mock.admin.dropAllSockets("market");
    churn(mock, m, 40, 3); // trades the recorder cannot see
    await settle(1_500);
    churn(mock, m, 20, 4);
    await settle(300);
    ac.abort();
    expect(await running, err.join("")).toBe(0);
    const summary = JSON.parse(out.join("")) as {
      outDir: string;
      files: string[];
      reconnects: number;
      printsMissed: number;
    };
    expect(summary.reconnects).toBeGreaterThan(0);
    const recs = await readAll(summary.files);
    const marks = recs.filter((r) => r.frame.type === "prints_missed");
    expect(marks.map((r) => r.frame.id).sort()).toEqual([m.yesTokenId, m.noTokenId].sort());
    expect(summary.printsMissed).toBe(2);
    for (const r of marks) {
      expect(r.frame).toMatchObject({ sid: "gap", channel: "token_trade_matches", via: "reconnect" });
      const d = r.frame.data as { tokenId: string; fromMs: number; toMs: number };
      expect(d.tokenId).toBe(r.frame.id);
      expect(d.fromMs).toBeLessThanOrEqual(dropAt);
      expect(d.toMs).toBeGreaterThan(dropAt);
      expect(d.toMs).toBeLessThanOrEqual(r.recvTs);
    }

    const config = parseReplayConfig([
      { strategy: { name: "bands", params: { bands: [{ margin: "0.01", size: "10" }] } } },
    ]);
    const replayed = (await runBacktest({ config, data: summary.outDir })).summary;
    expect(replayed.data.printsMissed).toMatchObject({
      count: 2,
      tokens: [m.yesTokenId, m.noTokenId].sort(),
    });
    expect(replayed.data.printsMissed?.totalMs).toBeGreaterThan(0);
    expect(replayed.data.rejected).toEqual({}); // the marks never reach the frame parser
    // Without the marks (as recorded before), every other figure is the same.
    const bare = join(root, "bare.jsonl.gz");
    const w = RecordedWriter.create(bare);
    for (const r of recs) if (r.frame.type !== "prints_missed") await w.write(r);
    await w.close();
    const before = (await runBacktest({ config, data: bare })).summary;
    expect(before.data.printsMissed).toBeUndefined();
    const { printsMissed: _m, files: _f1, ...data } = replayed.data;
    const { files: _f2, ...beforeData } = before.data;
    expect(data).toEqual(beforeData);
    expect({ ...replayed, data: undefined }).toEqual({ ...before, data: undefined });
  }, 30_000);

  /*
   * s19 reccarry: a stretch still open when the recording stopped was not written (the summary's
   * printsMissed 0, nothing in the files), and the replay listed nothing: the recording's end read
   * as a market without trades. It is now written at the stop, ending there.
   */
  async function stopOpen(name: string, hold: (mock: Mock) => Promise<void>) {
    mock = await startMock();
    const m = market(mock);
    churn(mock, m, 40, 1);
    const { out, err, ac, running } = await startRecording(mock, root, [
      ...["--tokens", `${m.yesTokenId},${m.noTokenId}`],
      ...["--out", name],
    ]);
    churn(mock, m, 40, 2);
    await settle(300);
    const dropAt = Date.now();
    mock.admin.dropAllSockets("market");
    await until(() => err.some((l) => l.includes("connection lost")), "the recorder to see the drop");
    await hold(mock);
    const stopAt = Date.now();
    ac.abort();
    expect(await running, err.join("")).toBe(0);
    const summary = JSON.parse(out.join("")) as {
      outDir: string;
      files: string[];
      printsMissed: number;
      reconnects: number;
    };
    const marks = (await readAll(summary.files)).filter((r) => r.frame.type === "prints_missed");
    expect(marks.map((r) => r.frame.id).sort()).toEqual([m.yesTokenId, m.noTokenId].sort());
    expect(summary.printsMissed).toBe(2);
    for (const r of marks) {
      expect(r.frame).toMatchObject({ sid: "gap", channel: "token_trade_matches", via: "reconnect" });
      const d = r.frame.data as { fromMs: number; toMs: number };
      expect(d.fromMs).toBeLessThanOrEqual(dropAt);
      expect(d.toMs).toBeGreaterThanOrEqual(stopAt); // up to the stop
      expect(d.toMs).toBeLessThanOrEqual(r.recvTs);
    }
    const config = parseReplayConfig([
      { strategy: { name: "bands", params: { bands: [{ margin: "0.01", size: "10" }] } } },
    ]);
    const replayed = (await runBacktest({ config, data: summary.outDir })).summary;
    expect(replayed.data.printsMissed).toMatchObject({
      count: 2,
      tokens: [m.yesTokenId, m.noTokenId].sort(),
    });
    expect(replayed.data.printsMissed?.totalMs).toBeGreaterThanOrEqual(2 * (stopAt - dropAt));
    return summary;
  }

  it("a stretch open when the recording stops during the outage is written, ending at the stop", async () => {
    // The mock holds its frames (its clock stands still), `connected` too: the link never comes up.
    const summary = await stopOpen("missed-down", async (mock) => {
      mock.admin.setWsLatency(60_000);
      await settle(700); // past the first reconnect's back-off (250 to 500 ms)
    });
    expect(summary.reconnects).toBe(0);
  }, 30_000);

  it("a stretch open when the recording stops after the reconnect, before the prints are accepted again, is written", async () => {
    // The mock holds every frame it sends for a minute of its clock, which stands still but when
    // moved: moved once, past its `connected` frame, the subscribes it answers after go unanswered.
    const summary = await stopOpen("missed-unanswered", async (mock) => {
      mock.admin.setWsLatency(60_000);
      await until(() => mock.admin.state().openSockets > 0, "the recorder to reconnect");
      await settle(100);
      mock.clock.advanceBy(60_000);
      await settle(300);
    });
    expect(summary.reconnects).toBe(1);
  }, 30_000);
});
