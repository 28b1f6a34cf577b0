import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseReplayConfig } from "../../../src/backtest/replay/replay-config.js";
import { runBacktest } from "../../../src/backtest/replay/run-backtest.js";
import { type RecordedFrame, RecordedWriter, readRecorded } from "../../../src/recorded/format.js";
import { GEN_TOKEN, writeRecording } from "./support/recording.js";

/*
 * s22 recwatch: `mm record` now also marks the prints lost while the server had dropped the
 * token_trade_matches subscription on a live socket (`"via": "dropped"`) and while a subscribe was
 * refused with a retryable code (`"via": "refused"`). The replay must take those marks as it takes a
 * reconnect's: listed under data.printsMissed, never reaching the frame parser, nothing else moved.
 */

const root = mkdtempSync(join(tmpdir(), "mm-bt-missed-via-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const T0 = 1_750_000_000_000;

/** The generated recording with one prints_missed mark of `via` inserted after its 200th frame. */
async function withMark(base: string, via: string): Promise<string> {
  const dir = join(root, via);
  mkdirSync(dir);
  const recs: RecordedFrame[] = [];
  for await (const r of readRecorded(base)) recs.push(r);
  const at = recs[200]?.recvTs ?? T0;
  const mark = {
    type: "prints_missed",
    sid: "gap",
    channel: "token_trade_matches",
    id: GEN_TOKEN,
    via,
    data: { tokenId: GEN_TOKEN, fromMs: at - 3_000, toMs: at },
  };
  const w = RecordedWriter.create(join(dir, "market-1.jsonl.gz"));
  for (const [i, r] of recs.entries()) {
    await w.write(r);
    if (i === 200) await w.write({ recvTs: at, frame: mark });
  }
  await w.close();
  return dir;
}

describe("a prints_missed mark of a dropped or refused subscription in a replay", () => {
  it("is listed and handled as a reconnect's mark", async () => {
    const base = join(root, "base.jsonl.gz");
    await writeRecording(base, 400, { t0: T0, stepMs: 50 });
    const config = parseReplayConfig([
      { strategy: { name: "bands", params: { bands: [{ margin: "0.01", size: "10" }] } } },
    ]);
    const run = async (via: string) =>
      (await runBacktest({ config, data: await withMark(base, via) })).summary;
    const reconnect = await run("reconnect");
    expect(reconnect.data.printsMissed).toMatchObject({ count: 1, totalMs: 3_000, tokens: [GEN_TOKEN] });
    expect(reconnect.data.rejected).toEqual({});
    expect(await run("dropped")).toEqual(reconnect);
    expect(await run("refused")).toEqual(reconnect);
  }, 60_000);
});
