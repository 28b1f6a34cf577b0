import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { BookTracker } from "../../../src/book/tracker.js";
import { createRecordCommand } from "../../../src/cli/record.js";
import { ConfigError } from "../../../src/config/errors.js";
import { SimClock } from "../../../src/core/sim-clock.js";
import { isBookEvent } from "../../../src/gateway/market-data-feed.js";
import { parseEventFrame } from "../../../src/gateway/schema/events.js";
import type { RecordedFrame } from "../../../src/recorded/format.js";
import {
  churn,
  keyIdOf,
  type Mock,
  market,
  place,
  startMock,
  T0,
  until,
  venueWire,
} from "../gateway/harness.js";
import { readAll } from "./record-io.js";

const root = mkdtempSync(join(tmpdir(), "mm-record-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let mock: Mock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

interface Captured {
  readonly io: {
    stdout: (t: string) => void;
    stderr: (t: string) => void;
    env: NodeJS.ProcessEnv;
    cwd: string;
  };
  readonly out: string[];
  readonly err: string[];
}

function capture(env: NodeJS.ProcessEnv): Captured {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: (t) => out.push(t), stderr: (t) => err.push(t), env, cwd: root }, out, err };
}

const envFor = (m: Mock): NodeJS.ProcessEnv => ({
  MM_API_KEY: m.key,
  MM_EXCHANGE_WS_URL: m.wsUrl,
  MM_LOG_LEVEL: "warn",
});

/** Runs `mm record` in process until `act` is done, then aborts it; returns exit code, summary, output. */
async function recordWhile(
  args: string[],
  act: (c: Captured) => Promise<void>,
  opts: { clock?: SimClock; env?: NodeJS.ProcessEnv } = {},
) {
  const m = mock as Mock;
  const c = capture(opts.env ?? envFor(m));
  const ac = new AbortController();
  const cmd = createRecordCommand({
    signal: ac.signal,
    ...(opts.clock === undefined ? {} : { clock: opts.clock }),
  });
  const running = cmd.run(args, c.io);
  await until(
    () => c.err.some((l) => l.includes("recording")) || c.out.length > 0,
    "the recorder to subscribe",
  );
  await act(c);
  ac.abort();
  const code = await running;
  const summary = JSON.parse(c.out.join("")) as {
    files: string[];
    frames: number;
    carried: number;
    fatal: string | null;
  };
  return { code, summary, c };
}

describe("mm record against the mock", () => {
  it("records book and trade frames with receive times; the files replay to the venue's books", async () => {
    mock = await startMock();
    const m = market(mock);
    churn(mock, m, 30, 1);
    const out = join(root, "basic");
    const started = Date.now();
    const { code, summary, c } = await recordWhile(
      ["--tokens", `${m.yesTokenId},${m.noTokenId}`, "--out", "basic"],
      async () => {
        churn(mock as Mock, m, 100, 2);
        (mock as Mock).admin.skipSeq(m.yesTokenId); // the recorder's tracker resyncs: a snapshot is recorded
        churn(mock as Mock, m, 50, 3);
        place(mock as Mock, { marketId: m.id, side: "sell", price: "0.70", qty: "3" });
        place(mock as Mock, { marketId: m.id, side: "buy", price: "0.99", qty: "3" }); // crosses: a trade
        await until(() => readdirSync(out).length === 1, "the file");
        await new Promise((r) => setTimeout(r, 200));
      },
    );
    expect(code, c.err.join("")).toBe(0);
    expect(summary.fatal).toBeNull();
    expect(summary.files).toHaveLength(1);
    expect(summary.files[0]).toMatch(/\/basic\/market-\d{8}T\d{6}Z-0001\.jsonl\.gz$/);
    const recs = await readAll(summary.files);
    expect(recs).toHaveLength(summary.frames);
    const types = recs.map((r) => r.frame.type);
    expect(types.filter((t) => t === "book_snapshot")).toHaveLength(3); // two after subscribe, one after the gap
    expect(types.filter((t) => t === "book_delta").length).toBeGreaterThan(50);
    expect(types).toContain("trade_matched");
    for (let i = 1; i < recs.length; i++)
      expect(recs[i]?.recvTs).toBeGreaterThanOrEqual(recs[i - 1]?.recvTs ?? 0);
    expect(recs[0]?.recvTs).toBeGreaterThanOrEqual(started);
    expect(recs[0]?.frame).toMatchObject({
      type: "book_snapshot",
      channel: "token_book",
      sid: expect.any(Number),
    });

    // Replay: the recorded frames through the same parser and a tracker end on the venue's books.
    const tracker = new BookTracker({ clock: new SimClock(0), port: { requestSnapshot: () => true } });
    for (const r of recs) {
      const p = parseEventFrame(r.frame as Record<string, unknown>, "market");
      if (!("rejected" in p) && isBookEvent(p.event)) tracker.onEvent(p.event);
    }
    for (const t of [m.yesTokenId, m.noTokenId]) {
      expect(tracker.state(t)?.status).toBe("synced");
      expect(tracker.book(t)?.toWire()).toEqual(venueWire(mock, t));
    }
    expect(tracker.counters.gaps).toBe(1);
    tracker.close();
    expect(c.err.join("")).not.toContain(mock.key.split("_")[3] ?? "?");
  });

  it("rotates by compressed size: several complete files, nothing lost, names in order", async () => {
    mock = await startMock();
    const markets = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => market(mock as Mock, i));
    const tokens = markets.flatMap((x) => [x.yesTokenId, x.noTokenId]);
    const { code, summary, c } = await recordWhile(
      ["--tokens", tokens.join(","), "--out", "sized", "--rotate-mb", "0.02"],
      async () => {
        for (const [i, x] of markets.entries()) {
          churn(mock as Mock, x, 600, 10 + i);
          await new Promise((r) => setTimeout(r, 30));
        }
        await new Promise((r) => setTimeout(r, 200));
      },
    );
    expect(code, c.err.join("")).toBe(0);
    expect(summary.files.length).toBeGreaterThanOrEqual(3);
    expect([...summary.files].sort()).toEqual(summary.files);
    expect(summary.files.map((f) => f.slice(-13))).toEqual(
      summary.files.map((_, i) => `${String(i + 1).padStart(4, "0")}.jsonl.gz`),
    );
    const recs = await readAll(summary.files);
    // Each rotated file also starts with the markets' lifecycle so far (sid "carry", not in `frames`).
    expect(summary.carried).toBeGreaterThan(0);
    expect(recs).toHaveLength(summary.frames + summary.carried);
    for (const t of tokens) {
      // The deltas are contiguous across files; a rotation's fresh snapshot repeats the seq it is at.
      const book = recs.filter((r) => r.frame.id === t && r.frame.channel === "token_book");
      const seqOf = (r: RecordedFrame) => (r.frame.data as { seq: number }).seq;
      const seqs = book.filter((r) => r.frame.type !== "book_snapshot").map(seqOf);
      for (let i = 1; i < seqs.length; i++) expect(seqs[i]).toBe((seqs[i - 1] ?? 0) + 1);
      for (const [i, r] of book.entries()) {
        if (i > 0 && r.frame.type === "book_snapshot")
          expect(seqOf(r)).toBe(seqOf(book[i - 1] as RecordedFrame));
      }
    }
  });

  it("rotates by age on the injected clock; file names carry each file's start time", async () => {
    mock = await startMock();
    const m = market(mock);
    const clock = new SimClock(T0);
    const { summary } = await recordWhile(
      ["--tokens", m.yesTokenId, "--out", "aged", "--rotate-minutes", "1", "--channels", "token_book"],
      async () => {
        churn(mock as Mock, m, 20, 1);
        await until(() => readdirSync(join(root, "aged")).length === 1, "the first file");
        await new Promise((r) => setTimeout(r, 100)); // the first churn's frames are in
        // Keepalive runs on this clock too: step it so that pings are answered (no watchdog trip).
        for (let i = 0; i < 12; i++) {
          clock.advanceBy(5_000);
          await new Promise((r) => setTimeout(r, 10));
        }
        churn(mock as Mock, m, 20, 2);
        await until(() => readdirSync(join(root, "aged")).length === 2, "the second file");
        await new Promise((r) => setTimeout(r, 300)); // the rotation's snapshot answer is in
      },
      { clock },
    );
    expect(summary.files.map((f) => f.split("/").pop())).toEqual([
      "market-20260601T000000Z-0001.jsonl.gz",
      "market-20260601T000100Z-0002.jsonl.gz",
    ]);
    const [first, second] = await Promise.all(summary.files.map((f) => readAll([f])));
    expect(first?.length).toBeGreaterThan(0);
    expect(first?.every((r) => r.recvTs < T0 + 60_000)).toBe(true);
    expect(second?.length).toBeGreaterThan(0);
    expect(second?.every((r) => r.recvTs >= T0 + 60_000)).toBe(true);
    // Each file after a rotation gets a fresh snapshot of every book: it replays alone.
    const snapshots = (f: RecordedFrame[] | undefined) =>
      (f ?? []).filter((r) => r.frame.type === "book_snapshot" && r.frame.id === m.yesTokenId).length;
    expect(snapshots(first)).toBe(1); // the subscription's
    expect(snapshots(second)).toBe(1); // the rotation's
  });

  it("a revoked key stops the recording with exit code 1; what was written stays readable", async () => {
    mock = await startMock();
    const m = market(mock);
    const { code, summary, c } = await recordWhile(
      ["--tokens", m.yesTokenId, "--out", "revoked"],
      async () => {
        churn(mock as Mock, m, 20, 1);
        await new Promise((r) => setTimeout(r, 100));
        (mock as Mock).admin.revokeKey(keyIdOf((mock as Mock).key));
        await new Promise((r) => setTimeout(r, 100));
      },
    );
    expect(code).toBe(1);
    expect(summary.fatal).toBe("api_key_revoked");
    expect(c.err.join("")).toContain("api_key_revoked");
    expect((await readAll(summary.files)).length).toBe(summary.frames);
  });

  it("a token id the exchange does not know is named once at warn (it used to record failures silently)", async () => {
    mock = await startMock();
    const m = market(mock);
    const typo = `${m.yesTokenId.slice(0, -1)}${m.yesTokenId.endsWith("1") ? "2" : "1"}`;
    // The recorder's tracker retries the snapshot (0.5 s, then 1 s…): 1.6 s sees two or three failures.
    const { code, summary, c } = await recordWhile(
      ["--tokens", `${typo},${m.noTokenId}`, "--out", "typo"],
      () => new Promise((r) => setTimeout(r, 1_600)),
    );
    const failures = (await readAll(summary.files)).filter((r) => r.frame.type === "book_snapshot_failed");
    expect(failures.length).toBeGreaterThan(1);
    expect(code).toBe(0);
    const warns = c.err
      .join("")
      .split("\n")
      .filter((l) => l.includes("no book for token"));
    expect(warns).toHaveLength(1);
    expect(JSON.parse(warns[0] ?? "{}")).toMatchObject({
      level: 40,
      tokenId: typo,
      reason: "unknown_token",
    });
    expect(warns[0]).not.toContain(m.noTokenId);
    expect(summary.frames).toBeGreaterThan(0);
  });

  it("bad usage and a missing key are refused before connecting", async () => {
    mock = await startMock();
    const cmd = createRecordCommand({ signal: AbortSignal.abort() });
    const c = capture(envFor(mock));
    await expect(cmd.run(["--out", "x"], c.io)).rejects.toMatchObject({ code: "usage_error" });
    await expect(cmd.run(["--tokens", "12", "--out", "x", "--rotate-mb", "0"], c.io)).rejects.toMatchObject({
      code: "usage_error",
    });
    await expect(cmd.run(["--tokens", "abc", "--out", "x"], c.io)).rejects.toThrow(/decimal token id/);
    // A bare dash is stdout for other tools, never a directory: refused as mm backtest --out - and
    // mm import's OUT - are, rather than a folder called "-" created in the working directory.
    await expect(cmd.run(["--tokens", "12", "--out", "-"], c.io)).rejects.toThrow(
      '--out -: a directory is needed, not stdout (./- for a directory called "-")',
    );
    await expect(cmd.run(["--tokens", "12", "--out", "x", "--channels", "user_fills"], c.io)).rejects.toThrow(
      /--channels/,
    );
    const noKey = capture({ MM_EXCHANGE_WS_URL: mock.wsUrl });
    await expect(cmd.run(["--tokens", "12", "--out", "x"], noKey.io)).rejects.toBeInstanceOf(ConfigError);
    const help = capture({});
    expect(await cmd.run(["--help"], help.io)).toBe(0);
    expect(help.out.join("")).toContain("--rotate-minutes");
  });
});
