import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseReplayConfig } from "../../../src/backtest/replay/replay-config.js";
import { runBacktest } from "../../../src/backtest/replay/run-backtest.js";
import { RecordedWriter } from "../../../src/recorded/format.js";
import { CONDITION, frame, TOKEN } from "./support/killed-recording.js";

/*
 * `mm record --tokens GOOD,TYPO` records, for a mistyped id, the exchange's book_snapshot_failed
 * answers (README "mm record": the recording goes on, retrying it, recording what arrives). Such a
 * token never has a book. The replay must not treat it as booked:
 * - with markets.tokens naming it, data.tokensWithoutBook must list it (the typo warning exists for
 *   exactly this case), but SimSession fires bookApplied for book_snapshot_failed too, so the token
 *   counts as booked and the warning never comes;
 * - without markets.tokens, scanTokens lists it ("the scan finds only booked ones", run-backtest.ts),
 *   so a phantom token with all-zero figures is simulated and the top-level quoteUptime (the mean
 *   over the tokens) is halved, silently.
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
  dir = mkdtempSync(join(tmpdir(), "mm-replay-failed-"));
  data = join(dir, "rec.jsonl.gz");
  const w = RecordedWriter.create(data);
  for (let n = 1; n <= 60; n++) {
    const f = frame(n);
    await w.write(f);
    if (n % 20 === 1) {
      // The exchange refuses the mistyped token's snapshot; the recorder retries and records it.
      const failed = { tokenId: TYPO, reason: "unknown_token", tsMs: f.recvTs };
      await w.write({
        recvTs: f.recvTs,
        frame: { type: "book_snapshot_failed", sid: 1, channel: "token_book", id: TYPO, data: failed },
      });
    }
  }
  await w.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("replay: a token whose only token_book frames are book_snapshot_failed", () => {
  it("is listed in data.tokensWithoutBook when the config names it", async () => {
    const r = await runBacktest({ config: parseReplayConfig([...LAYERS, tokens(TOKEN, TYPO)]), data });
    expect(r.summary.data).toHaveProperty("tokensWithoutBook", [TYPO]);
  }, 60_000);

  it("is not simulated when the tokens are found by the scan (no phantom token diluting quoteUptime)", async () => {
    const scanned = await runBacktest({ config: parseReplayConfig(LAYERS), data });
    const listed = await runBacktest({ config: parseReplayConfig([...LAYERS, tokens(TOKEN)]), data });
    expect(scanned.summary.inventory.map((t) => t.tokenId)).toEqual([TOKEN]);
    expect(scanned.summary.quoteUptime).toBe(listed.summary.quoteUptime);
  }, 60_000);
});
