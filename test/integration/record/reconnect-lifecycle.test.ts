import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { parseReplayConfig } from "../../../src/backtest/replay/replay-config.js";
import { runBacktest } from "../../../src/backtest/replay/run-backtest.js";
import { createRecordCommand } from "../../../src/cli/record.js";
import { churn, type Mock, market, settle, startMock, until } from "../gateway/harness.js";
import { readAll, recordIo, startRecording } from "./record-io.js";

const root = mkdtempSync(join(tmpdir(), "mm-rev-rec-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let mock: Mock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

describe("mm record: lifecycle across a reconnect (review17 r3b)", () => {
  it("a market that reopened while the recorder was reconnecting is open in the recording after it", async () => {
    mock = await startMock();
    const m = market(mock);
    churn(mock, m, 40, 1);
    const tokens = `${m.yesTokenId},${m.noTokenId}`;
    const { out, err, ac, running } = await startRecording(mock, root, ["--tokens", tokens, "--out", "rc"]);
    await settle(200);
    mock.admin.pauseMarket(m.id);
    await settle(200);
    // The connection drops; the market reopens before the recorder is back.
    mock.admin.dropAllSockets("market");
    mock.admin.resumeMarket(m.id);
    await settle(1_500);
    churn(mock, m, 20, 2);
    await settle(300);
    ac.abort();
    expect(await running, err.join("")).toBe(0);
    const summary = JSON.parse(out.join("")) as {
      outDir: string;
      files: string[];
      reconnects: number;
      statusReads: { recorded: number; failed: number; superseded: number };
    };
    expect(summary.reconnects).toBeGreaterThan(0);
    const recs = await readAll(summary.files);
    // The recording: paused, then the resubscribe's snapshots (the reconnect), and no word since.
    const pausedAt = recs.find((r) => r.frame.type === "market_paused")?.recvTs ?? Number.NaN;
    const back = recs.find((r) => r.frame.type === "book_snapshot" && r.recvTs > pausedAt)?.recvTs;
    expect(back, "the resubscribe's snapshots").toBeDefined();
    expect(mock.ctx.venue.market(m.id)?.status).toBe("OPEN"); // the exchange's market is open
    // The fix: at each (re)subscribe the recorder reads the market's record (and the platform's
    // status) over REST and records it, marked as a read (sid "rest", `via`).
    const reads = recs.filter((r) => r.frame.sid === "rest");
    const reopened = reads.find(
      (r) => r.frame.type === "market_status" && r.recvTs >= pausedAt && r.frame.id === m.conditionId,
    );
    expect(reopened?.frame.data, "the market's status read after the reconnect").toMatchObject({
      conditionId: m.conditionId,
      status: "OPEN",
    });
    expect(reopened?.frame.via).toBe(`GET /api/markets/${m.slug}`);
    expect(
      reads.some((r) => r.frame.type === "platform_status" && r.frame.via === "GET /api/platform/status"),
    ).toBe(true);
    expect(summary.statusReads.failed).toBe(0);
    expect(summary.statusReads.recorded).toBeGreaterThanOrEqual(4); // market and platform, before and after

    const config = parseReplayConfig([
      { strategy: { name: "bands", params: { bands: [{ margin: "0.01", size: "10" }] } } },
    ]);
    const placedAt: number[] = [];
    await runBacktest({
      config,
      data: summary.outDir,
      onSession: (session) =>
        session.venueEvents.push((e) => {
          if (e.type === "order_placed") placedAt.push(session.clock.now());
        }),
    });
    expect(placedAt.filter((t) => t < pausedAt).length, "quotes before the pause").toBeGreaterThan(0);
    // Was: none. The replay holds the market PAUSED for the rest of the recording (its venue refuses,
    // its engine is gated), since nothing after the reconnect says it reopened — live, the bot's
    // watch reads the market's record and quotes again.
    expect(
      placedAt.filter((t) => t >= (back as number)).length,
      "quotes after the reconnect, the market being open",
    ).toBeGreaterThan(0);
  }, 30_000);
});

describe("mm record: a status that cannot be read over REST", () => {
  it("records nothing for it, counts it in the summary and keeps recording books", async () => {
    mock = await startMock();
    const m = market(mock);
    churn(mock, m, 20, 3);
    const { io, out, err } = recordIo(mock, root);
    // An exchange whose HTTP API answers nothing: a port just closed.
    const closed = createServer();
    await new Promise<void>((ok) => closed.listen(0, "127.0.0.1", ok));
    const { port } = closed.address() as AddressInfo;
    await new Promise((ok) => closed.close(ok));
    const env = { ...io.env, MM_EXCHANGE_BASE_URL: `http://127.0.0.1:${port}` };
    const ac = new AbortController();
    const running = createRecordCommand({ signal: ac.signal }).run(
      ["--tokens", `${m.yesTokenId},${m.noTokenId}`, "--out", "unread"],
      { ...io, env },
    );
    await until(
      () => err.filter((l) => l.includes("status read over REST failed")).length >= 2,
      "the market's and the platform's reads to fail",
      { timeoutMs: 20_000 },
    );
    churn(mock, m, 10, 4);
    await settle(300);
    ac.abort();
    expect(await running, err.join("")).toBe(0);
    const summary = JSON.parse(out.join("")) as {
      files: string[];
      statusReads: { recorded: number; failed: number };
    };
    expect(summary.statusReads).toMatchObject({ recorded: 0, failed: 2 });
    const recs = await readAll(summary.files);
    expect(recs.some((r) => r.frame.sid === "rest")).toBe(false);
    expect(recs.filter((r) => r.frame.type === "book_snapshot").length).toBeGreaterThan(0);
    expect(recs.some((r) => r.frame.type === "book_delta" || r.frame.type === "book_update")).toBe(true);
  }, 30_000);
});
