import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createRecordCommand } from "../../../src/cli/record.js";
import { churn, type Mock, market, settle, startMock, until } from "../gateway/harness.js";
import { recordInChild } from "./record-child.js";
import { recordIo } from "./record-io.js";

/*
 * `mm record` on a disk that hangs for good (an NFS hard mount whose server is gone): after the
 * recording stops (here: write_stalled at --buffer-mb), closing waits for the disk to take the
 * frames it accepted, but only while the disk makes progress. Once it has taken nothing for
 * --drain-seconds the command gives up, says which file may lack which frames, and exits 1. A
 * file operation the kernel never completes still holds the process (and process.exit, which
 * joins libuv's threads), so the process then ends itself.
 */

const root = mkdtempSync(join(tmpdir(), "mm-record-hung-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let mock: Mock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

/** A disk whose writes never complete. */
class HungDisk extends Writable {
  override _write(_chunk: Buffer, _enc: BufferEncoding, _done: () => void): void {}
}

describe("mm record on a disk that never answers", () => {
  it("gives up after --drain-seconds without progress: exit 1, naming the file and the frames at risk", async () => {
    mock = await startMock();
    const m = market(mock);
    const disk = new HungDisk();
    const { io, out, err } = recordIo(mock, root);
    const ac = new AbortController();
    const exits: number[] = [];
    const cmd = createRecordCommand({
      signal: ac.signal,
      openSink: () => disk,
      forceExit: (code) => exits.push(code),
    });
    let exited = false;
    const running = cmd
      .run(
        [
          "--tokens",
          `${m.yesTokenId},${m.noTokenId}`,
          "--out",
          "rec",
          "--buffer-mb",
          "0.0625",
          "--drain-seconds",
          "0.5",
        ],
        io,
      )
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
    const stalledAt = Date.now();
    await until(() => exited, "the command to give up on the disk", { timeoutMs: 10_000 });
    expect(Date.now() - stalledAt).toBeGreaterThanOrEqual(450);
    const code = await running;

    expect(code).toBe(1);
    expect(ac.signal.aborted).toBe(false);
    const stderr = err.join("");
    expect(stderr).toMatch(/mm record: writing failed: the disk did not keep up/);
    const summary = JSON.parse(out.join("")) as {
      files: string[];
      frames: number;
      drainAbandoned: { file: string; framesAtRisk: number; bytesAtRisk: number };
    };
    const file = summary.files[0] ?? "?";
    expect(summary.drainAbandoned.file).toBe(file);
    expect(summary.drainAbandoned.framesAtRisk).toBeGreaterThan(100);
    expect(summary.drainAbandoned.bytesAtRisk).toBeGreaterThan(64 * 1024);
    expect(stderr).toContain(
      `mm record: the disk took nothing for 0.5 s: gave up waiting for it; ${summary.drainAbandoned.framesAtRisk} frame(s)`,
    );
    expect(stderr).toContain(`may be missing from ${file}`);
    expect(disk.destroyed).toBe(true);
    expect(exits).toEqual([1]);
  }, 30_000);

  it("stopped by a signal on a hung disk: gives up the same way, exit 1", async () => {
    mock = await startMock();
    const m = market(mock);
    const disk = new HungDisk();
    const { io, out, err } = recordIo(mock, root);
    const ac = new AbortController();
    const exits: number[] = [];
    const cmd = createRecordCommand({
      signal: ac.signal,
      openSink: () => disk,
      forceExit: (c) => exits.push(c),
    });
    const running = cmd.run(["--tokens", m.yesTokenId, "--out", "rec-signal", "--drain-seconds", "0.3"], io);
    await until(() => err.some((l) => l.includes("recording")), "the recorder to subscribe");
    churn(mock, m, 20, 1);
    await settle(100);
    ac.abort();
    expect(await running).toBe(1);
    const stderr = err.join("");
    expect(stderr).not.toContain("writing failed"); // nothing failed before closing
    expect(stderr).toMatch(
      /mm record: the disk took nothing for 0\.3 s: gave up waiting for it; \d+ frame\(s\)/,
    );
    const summary = JSON.parse(out.join("")) as { frames: number; drainAbandoned: { framesAtRisk: number } };
    // Nothing ever reached the disk: every frame is at risk (`frames` counts those handed to gzip;
    // if a flush hung before the last ones were, those are at risk too).
    expect(summary.frames).toBeGreaterThan(0);
    expect(summary.drainAbandoned.framesAtRisk).toBeGreaterThanOrEqual(Math.max(summary.frames, 5));
    expect(exits).toEqual([1]);
  }, 30_000);

  it("a child process whose file never opens (a hung mount) ends by itself", async () => {
    mock = await startMock();
    const m = market(mock);
    const dir = mkdtempSync(join(root, "child-"));
    // Opening a FIFO for writing blocks until a reader comes: none ever does. The open is stuck on
    // the thread pool, as a write to a dead NFS server is, and it keeps the event loop alive.
    const fifo = join(dir, "hung");
    execFileSync("mkfifo", [fifo]);
    const c = await recordInChild(mock, dir, {
      imports: 'import { createWriteStream } from "node:fs";',
      sink: "createWriteStream(process.env.MM_HUNG_FILE)",
      args: [
        ...["--tokens", `${m.yesTokenId},${m.noTokenId}`, "--out", join(dir, "rec")],
        ...["--buffer-mb", "0.0625", "--drain-seconds", "0.5"],
      ],
      env: { MM_HUNG_FILE: fifo },
    });
    try {
      for (let i = 0; i < 60 && !c.stderr.includes("write_stalled"); i++) {
        churn(mock, m, 100, i + 1);
        await settle(20);
      }
      await until(() => c.stderr.includes("write_stalled"), "the stall to be logged");
      await until(() => c.code !== undefined, `the child to exit by itself (stderr: ${c.stderr})`, {
        timeoutMs: 10_000,
      });
      await c.exited;
      // process.exit(1) would wait for the stuck thread: the process ends itself with SIGKILL.
      expect(c.code).toBe("SIGKILL");
      expect(c.stderr).toContain("gave up waiting for it");
      expect(c.stderr).toContain(
        "a file operation on the disk never returned: ending the process (SIGKILL) (code disk_hung)",
      );
      expect(JSON.parse(c.stdout)).toMatchObject({ drainAbandoned: { file: expect.any(String) } });
    } finally {
      if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill("SIGKILL");
    }
  }, 40_000);
});
