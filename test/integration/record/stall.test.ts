import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createRecordCommand } from "../../../src/cli/record.js";
import type { RecordedFrame } from "../../../src/recorded/format.js";
import { churn, type Mock, market, settle, startMock, until } from "../gateway/harness.js";
import { GatedDisk } from "./gated-disk.js";
import { recordIo } from "./record-io.js";

/*
 * `mm record` on a disk that stops taking bytes: frames keep coming from the socket. The recorder
 * buffers them up to --buffer-mb, then stops the recording at once with an error in the log
 * (while it still waits for the disk), writes every frame it had accepted once the disk comes
 * back, and exits 1 naming the stall. Nothing is dropped in the middle of the file: each token's
 * book stream in it is contiguous.
 */

const root = mkdtempSync(join(tmpdir(), "mm-record-stall-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let mock: Mock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

describe("mm record on a stalled disk", () => {
  it("stops at the buffer limit with an error, then writes everything it accepted; exit 1", async () => {
    mock = await startMock();
    const m = market(mock);
    const disk = new GatedDisk();
    const { io, out, err } = recordIo(mock, root);
    const ac = new AbortController();
    const cmd = createRecordCommand({ signal: ac.signal, openSink: () => disk });
    let exited = false;
    const running = cmd
      .run(["--tokens", `${m.yesTokenId},${m.noTokenId}`, "--out", "rec", "--buffer-mb", "0.0625"], io)
      .finally(() => {
        exited = true;
      });
    await until(() => err.some((l) => l.includes("recording")), "the recorder to subscribe");
    const stalled = () => err.some((l) => l.includes("write_stalled"));
    for (let i = 0; i < 60 && !stalled(); i++) {
      churn(mock, m, 100, i + 1);
      await settle(20);
    }
    await until(stalled, "the stall to be logged");
    expect(err.join("")).toContain("recording stopped: writing failed");
    await settle(100);
    expect(exited).toBe(false); // still holding what it accepted, for the disk
    churn(mock, m, 100, 99); // after the stop: not recorded
    disk.release();
    const code = await running;

    expect(code).toBe(1);
    expect(ac.signal.aborted).toBe(false); // it stopped by itself
    expect(err.join("")).toMatch(
      /mm record: writing failed: the disk did not keep up: .* \(limit 64 KiB\).* \(code write_stalled\)\n/,
    );
    const summary = JSON.parse(out.join("")) as {
      frames: number;
      recvTsClamped: number;
      clockStepBackMs: number;
    };
    expect(summary).toMatchObject({ recvTsClamped: 0, clockStepBackMs: 0 });
    const recs = gunzipSync(Buffer.concat(disk.chunks))
      .toString("utf8")
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l) as RecordedFrame);
    expect(recs.length).toBe(summary.frames);
    // It stalled only once more than the limit waited for the disk, so what it accepted (and wrote
    // once released) is more than 64 KiB of lines. (A frame count depends on how much the gzip
    // stream and the sink took before blocking: under load it came out at exactly 200.)
    const lineChars = (l: RecordedFrame) => JSON.stringify(l).length + 1;
    expect(recs.reduce((n, r) => n + lineChars(r), 0)).toBeGreaterThan(64 * 1024);
    for (const t of [m.yesTokenId, m.noTokenId]) {
      const seqs = recs
        .filter((r) => r.frame.id === t && r.frame.channel === "token_book")
        .map((r) => (r.frame.data as { seq: number }).seq);
      expect(seqs.length).toBeGreaterThan(0);
      for (let i = 1; i < seqs.length; i++) expect(seqs[i]).toBe((seqs[i - 1] ?? 0) + 1);
    }
  }, 30_000);
});
