import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseReplayConfig } from "../../../src/backtest/replay/replay-config.js";
import { runBacktest } from "../../../src/backtest/replay/run-backtest.js";
import type { EngineEvent } from "../../../src/engine/engine-events.js";
import { writeRecording } from "../../integration/backtest/support/recording.js";

/**
 * The closesAt gate in a replay backtest (SimClock): a recording of 60 s whose market closes after
 * 30 s. The bot quotes until then, has every quote cancelled at the close, and places nothing after it.
 */

const T0 = 1_750_000_000_000;
const CLOSE = T0 + 30_000;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "mm-engine-closes-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function config(closesAtMs: number | undefined) {
  return parseReplayConfig([
    {
      strategy: { name: "bands", params: { bands: [{ margin: "0.02", size: "10" }] } },
      latency: { feedMs: 5, entryMs: 3, responseMs: 3 },
      markets: closesAtMs === undefined ? {} : { closesAtMs },
    },
  ]);
}

describe("backtest: a market past its closesAt", () => {
  it("is quoted until its closesAt, then its quotes are cancelled and nothing is placed", async () => {
    const data = join(dir, "closes.jsonl.gz");
    await writeRecording(data, 3_000, { seed: 3, stepMs: 20, t0: T0 });
    const events: EngineEvent[] = [];
    const r = await runBacktest({ config: config(CLOSE), data, onEngineEvent: (e) => events.push(e) });
    expect(r.frames).toBe(3_000);
    const sent = events.filter((e) => e.type === "place_sent");
    expect(sent.filter((e) => e.atMs <= CLOSE).length).toBeGreaterThan(10);
    expect(sent.filter((e) => e.atMs > CLOSE)).toEqual([]);
    const closed = events.filter(
      (e) =>
        e.type === "decision" && e.decision.reason === "market_not_open" && e.decision.scope === "market",
    );
    expect(closed.map((e) => e.atMs)).toEqual([CLOSE + 1]);
    // Every quote was cancelled at the close, not at the end of the data.
    const cancels = events.filter((e) => e.type === "cancel_outcome" && e.atMs > CLOSE);
    expect(cancels.length).toBeGreaterThan(0);
    expect(cancels.every((e) => e.atMs < CLOSE + 1_000)).toBe(true);

    // The same data without a closesAt: quoted to the end.
    const open: EngineEvent[] = [];
    await runBacktest({ config: config(undefined), data, onEngineEvent: (e) => open.push(e) });
    expect(open.filter((e) => e.type === "place_sent" && e.atMs > CLOSE).length).toBeGreaterThan(10);
  }, 30_000);
});
