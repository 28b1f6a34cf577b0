import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { BookTracker } from "../../../src/book/tracker.js";
import { packageRoot } from "../../../src/config/paths.js";
import { SimClock } from "../../../src/core/sim-clock.js";
import { isBookEvent } from "../../../src/gateway/market-data-feed.js";
import { parseEventFrame } from "../../../src/gateway/schema/events.js";
import { type RecordedFrame, readRecorded } from "../../../src/recorded/format.js";
import { runBacktestCli } from "../backtest/support/cli.js";
import { churn, type Mock, market, startMock, until, venueWire } from "../gateway/harness.js";

/*
 * `mm record` killed outright (SIGKILL, OOM killer, host crash) cannot close its file. Its flush
 * timer (every second) puts the frames so far into the file, so the file on disk holds everything
 * but about the last second: the frames of a quiet market must not wait in deflate's buffers for
 * a block to fill. The killed recording then replays, its last file being reported as cut short.
 */

const dir = mkdtempSync(join(tmpdir(), "mm-record-kill-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let mock: Mock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const SCRIPT = `
const { recordCommand } = await import(process.env.MM_RECORD_MODULE);
process.exitCode = await recordCommand.run(process.argv.slice(2), {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  env: process.env,
  cwd: process.cwd(),
});
`;

// The book a replay of the file as it is now on disk ends on (undefined: not readable yet).
async function bookOnDisk(path: string, token: string): Promise<unknown> {
  const recs: RecordedFrame[] = [];
  for await (const r of readRecorded(path, { onTruncated: () => undefined })) recs.push(r);
  const tracker = new BookTracker({ clock: new SimClock(0), port: { requestSnapshot: () => true } });
  for (const r of recs) {
    const p = parseEventFrame(r.frame as Record<string, unknown>, "market");
    if (!("rejected" in p) && isBookEvent(p.event)) tracker.onEvent(p.event);
  }
  const book = tracker.book(token)?.toWire();
  tracker.close();
  return book;
}

describe("mm record killed with SIGKILL", () => {
  it("has every frame older than its flush period on disk; the cut file replays", async () => {
    mock = await startMock();
    const m = market(mock);
    const script = join(dir, "run-record.mjs");
    writeFileSync(script, SCRIPT);
    const out = join(dir, "killed");
    const child = spawn(
      process.execPath,
      ["--import", "tsx", script, "--tokens", m.yesTokenId, "--out", out],
      {
        cwd: packageRoot(),
        env: {
          PATH: process.env.PATH ?? "",
          MM_API_KEY: mock.key,
          MM_EXCHANGE_WS_URL: mock.wsUrl,
          MM_RECORD_MODULE: resolve(packageRoot(), "src/cli/record.ts"),
        },
      },
    );
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += String(d)));
    const exited = new Promise<NodeJS.Signals | null>((r) => child.once("exit", (_code, sig) => r(sig)));
    try {
      await until(() => stderr.includes("recording"), `the child to subscribe (stderr: ${stderr})`, {
        timeoutMs: 15_000,
      });
      await until(() => readdirSync(out).length === 1, "the file");
      const file = join(out, readdirSync(out)[0] as string);
      // A quiet market: a few KB of frames, far less than a deflate block.
      churn(mock, m, 60, 1);
      const venue = venueWire(mock, m.yesTokenId);
      const deadline = Date.now() + 5_000; // the flush period is 1 s
      let book = await bookOnDisk(file, m.yesTokenId);
      while (JSON.stringify(book) !== JSON.stringify(venue) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
        book = await bookOnDisk(file, m.yesTokenId);
      }
      expect(book).toEqual(venue);

      child.kill("SIGKILL");
      expect(await exited).toBe("SIGKILL");
      expect(await bookOnDisk(file, m.yesTokenId)).toEqual(venue);
      await expect(readRecorded(file).next()).resolves.toBeDefined(); // readable…
      const strict = (async () => {
        for await (const _ of readRecorded(file));
      })();
      await expect(strict).rejects.toMatchObject({ code: "truncated" }); // …but cut short

      const r = await runBacktestCli("--config", "config/backtest/bands-replay.json", "--data", out);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain(`mm backtest: warning: ${file} is cut short`);
      expect(JSON.parse(r.stdout)).toMatchObject({ data: { truncatedFiles: [basename(file)] } });
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
  }, 40_000);
});
