import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseReplayConfig } from "../../../src/backtest/replay/replay-config.js";
import { runBacktest } from "../../../src/backtest/replay/run-backtest.js";
import { runSweepCommand } from "../../../src/cli/backtest-sweep.js";
import { RecordedWriter } from "../../../src/recorded/format.js";
import { captureIo, runBacktestCli } from "./support/cli.js";
import { CONDITION, frame, TOKEN, writeFrames } from "./support/killed-recording.js";

/*
 * A token the config names but the data never books (a typo in its id, a file of another day) used
 * to run silently: exit 0, zero PnL and uptime for it. The summary now lists it in
 * data.tokensWithoutBook and mm backtest warns on stderr naming it.
 */

const TYPO = "4243";
const LAYERS = [
  {
    strategy: { name: "bands", params: { bands: [{ margin: "0.01", size: "10" }] } },
    latency: { feedMs: 5, entryMs: 3, responseMs: 3 },
    markets: { tick: "0.01" },
  },
];
const tokens = (...ids: string[]) => ({
  markets: { tokens: ids.map((tokenId) => ({ tokenId, conditionId: CONDITION })) },
});

let dir: string;
let data: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "mm-backtest-unbooked-"));
  data = join(dir, "rec.jsonl.gz");
  await writeFrames(data, 1, 60);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a configured token the data never books", () => {
  it("is listed in the summary's data.tokensWithoutBook; a token that is booked is not", async () => {
    const r = await runBacktest({ config: parseReplayConfig([...LAYERS, tokens(TOKEN, TYPO)]), data });
    expect(r.summary.data.tokensWithoutBook).toEqual([TYPO]);
    const ok = await runBacktest({ config: parseReplayConfig([...LAYERS, tokens(TOKEN)]), data });
    expect(ok.summary.data).not.toHaveProperty("tokensWithoutBook"); // the summary it always gave
    const scanned = await runBacktest({ config: parseReplayConfig(LAYERS), data });
    expect(scanned.summary.data).not.toHaveProperty("tokensWithoutBook");
  }, 60_000);

  it("mm backtest warns on stderr naming it and still exits 0 with the summary", async () => {
    const cfg = join(dir, "typo.json");
    writeFileSync(cfg, JSON.stringify(tokens(TOKEN, TYPO)));
    const r = await runBacktestCli(
      "--config",
      "config/backtest/bands-replay.json",
      "--config",
      cfg,
      "--data",
      data,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `mm backtest: warning: markets.tokens names ${TYPO}, which has no token_book frame in the data: its figures are all zero\n`,
    );
    expect(r.stderr).not.toContain(`names ${TOKEN},`);
    expect(JSON.parse(r.stdout)).toMatchObject({ data: { tokensWithoutBook: [TYPO] } });
  }, 60_000);

  it("a sweep warns once, however many points replay the data", async () => {
    const cfg = join(dir, "sweep-typo.json");
    writeFileSync(cfg, JSON.stringify({ ...LAYERS[0], ...tokens(TOKEN, TYPO) }));
    const grid = join(dir, "grid.json");
    writeFileSync(grid, JSON.stringify({ grid: { "bands[0].size": ["10", "20"] }, rankBy: "fills" }));
    const io = captureIo();
    const code = await runSweepCommand(
      { sweep: grid, workers: "2", progress: "none" },
      { configs: [cfg], scenarios: [], data, seed: undefined, paths: undefined, out: undefined },
      io,
    );
    const stderr = io.err.join("");
    expect(code, stderr).toBe(0);
    expect(stderr.split(`names ${TYPO},`).length - 1, stderr).toBe(1);
  }, 60_000);
});

/*
 * `mm record --tokens GOOD,TYPO` records, for a mistyped id, the exchange's book_snapshot_failed
 * answers (the recording goes on, retrying it). Such a token never has a book: with markets.tokens
 * naming it, it is listed in data.tokensWithoutBook; found by the scan, it is not simulated (a
 * phantom token with all-zero figures would halve the top-level quoteUptime).
 */
describe("a token whose only token_book frames are book_snapshot_failed", () => {
  let failed: string;
  beforeAll(async () => {
    failed = join(dir, "failed.jsonl.gz");
    const w = RecordedWriter.create(failed);
    for (let n = 1; n <= 60; n++) {
      const f = frame(n);
      await w.write(f);
      if (n % 20 === 1) {
        // The exchange refuses the mistyped token's snapshot; the recorder retries and records it.
        const refusal = { tokenId: TYPO, reason: "unknown_token", tsMs: f.recvTs };
        await w.write({
          recvTs: f.recvTs,
          frame: { type: "book_snapshot_failed", sid: 1, channel: "token_book", id: TYPO, data: refusal },
        });
      }
    }
    await w.close();
  });

  it("is listed in data.tokensWithoutBook when the config names it", async () => {
    const r = await runBacktest({
      config: parseReplayConfig([...LAYERS, tokens(TOKEN, TYPO)]),
      data: failed,
    });
    expect(r.summary.data).toHaveProperty("tokensWithoutBook", [TYPO]);
  }, 60_000);

  it("is not simulated when the tokens are found by the scan", async () => {
    const scanned = await runBacktest({ config: parseReplayConfig(LAYERS), data: failed });
    const listed = await runBacktest({ config: parseReplayConfig([...LAYERS, tokens(TOKEN)]), data: failed });
    expect(scanned.summary.inventory.map((t) => t.tokenId)).toEqual([TOKEN]);
    expect(scanned.summary.quoteUptime).toBe(listed.summary.quoteUptime);
  }, 60_000);
});
