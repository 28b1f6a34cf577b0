import { EventEmitter } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createRecordCommand } from "../../../src/cli/record.js";
import { churn, type Mock, market, settle, startMock, until } from "../gateway/harness.js";
import { GatedDisk } from "./gated-disk.js";
import { recordInChild } from "./record-child.js";
import { recordIo } from "./record-io.js";

/*
 * s18 recfix: `mm record` stopped by SIGINT drains the frames it accepted to the disk; on a slow
 * disk that takes a while, and a second Ctrl-C (or a supervisor's repeated SIGTERM) then ended the
 * process by the default action (the first handler was a `once`): the frames still queued were
 * lost, and the file left without its gzip end. A repeat now only warns, naming what is still
 * pending and the --drain-seconds bound; a third SIGINT/SIGTERM gives up on the drain as
 * --drain-seconds does (drainAbandoned, exit 1).
 */

const root = mkdtempSync(join(tmpdir(), "mm-record-signal-drain-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let mock: Mock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

/** An in-process `mm record` on `disk`, its signals emitted on the returned emitter. */
async function recording(disk: GatedDisk, out: string) {
  mock = await startMock();
  const m = market(mock);
  const { io, out: stdout, err } = recordIo(mock, root);
  const signals = new EventEmitter();
  const exits: number[] = [];
  let exited = false;
  const cmd = createRecordCommand({ signals, openSink: () => disk, forceExit: (c) => exits.push(c) });
  const running = cmd
    .run(["--tokens", m.yesTokenId, "--out", out, "--drain-seconds", "20"], io)
    .finally(() => {
      exited = true;
    });
  await until(() => err.some((l) => l.includes("recording")), "the recorder to subscribe");
  churn(mock, m, 40, 1);
  await settle(300);
  return { signals, running, err, stdout, exits, isExited: () => exited };
}

describe("mm record: a signal while it drains to a slow disk", () => {
  it("a second SIGINT warns what is pending and the drain goes on: every frame written, exit 0", async () => {
    const disk = new GatedDisk();
    const r = await recording(disk, "again");
    r.signals.emit("SIGINT");
    await settle(200);
    r.signals.emit("SIGINT");
    await until(() => r.err.some((l) => l.includes("stop asked again")), "the repeat to be logged");
    const warn = JSON.parse(r.err.find((l) => l.includes("stop asked again")) ?? "{}") as Record<
      string,
      unknown
    >;
    expect(warn).toMatchObject({ level: 40, signal: "SIGINT", drainIdleMs: 20_000 });
    expect(warn.framesPending).toBeGreaterThan(0);
    await settle(300);
    expect(r.isExited()).toBe(false); // still draining
    disk.release();
    expect(await r.running).toBe(0);
    const summary = JSON.parse(r.stdout.join("")) as {
      frames: number;
      carried: number;
      drainAbandoned?: unknown;
    };
    expect(summary.drainAbandoned).toBeUndefined();
    const lines = gunzipSync(Buffer.concat(disk.chunks)).toString().split("\n").filter(Boolean);
    expect(lines).toHaveLength(summary.frames + summary.carried);
    expect(r.exits).toEqual([]);
  }, 30_000);

  it("a third SIGINT or SIGTERM gives up on the drain at once, as --drain-seconds does: drainAbandoned, exit 1", async () => {
    const disk = new GatedDisk();
    const r = await recording(disk, "third");
    r.signals.emit("SIGTERM");
    await settle(100);
    r.signals.emit("SIGHUP"); // a closed terminal repeats its hangup: not a request for haste
    r.signals.emit("SIGINT");
    await settle(100);
    expect(r.isExited()).toBe(false);
    const asked = Date.now();
    r.signals.emit("SIGTERM");
    expect(await r.running).toBe(1);
    expect(Date.now() - asked).toBeLessThan(5_000); // not the 20 s of --drain-seconds
    const summary = JSON.parse(r.stdout.join("")) as {
      files: string[];
      drainAbandoned: { file: string; signal: string; framesAtRisk: number; idleMs?: number };
    };
    expect(summary.drainAbandoned).toMatchObject({ file: summary.files[0], signal: "SIGTERM" });
    expect(summary.drainAbandoned.idleMs).toBeUndefined();
    expect(summary.drainAbandoned.framesAtRisk).toBeGreaterThan(0);
    expect(r.err.join("")).toMatch(
      /mm record: SIGTERM received again while closing: gave up waiting for the disk; \d+ frame\(s\)/,
    );
    expect(disk.destroyed).toBe(true);
    expect(r.exits).toEqual([1]);
  }, 30_000);

  it("in a child process, a second real SIGINT does not end it while the disk hangs; a third does, exit 1", async () => {
    mock = await startMock();
    const m = market(mock);
    const dir = mkdtempSync(join(root, "child-"));
    // A disk whose writes never complete (as hung-disk.test.ts's): the drain waits on it.
    const c = await recordInChild(mock, dir, {
      imports: 'import { Writable } from "node:stream";',
      sink: "new Writable({ write() {} })",
      args: ["--tokens", m.yesTokenId, "--out", join(dir, "rec")],
    });
    try {
      churn(mock, m, 40, 1);
      await settle(300);
      c.child.kill("SIGINT");
      await settle(300);
      c.child.kill("SIGINT");
      await settle(500);
      expect(c.code).toBeUndefined(); // before: ended by the second SIGINT's default action
      await until(
        () => c.stderr.includes("stop asked again"),
        `the repeat to be logged (stderr: ${c.stderr})`,
      );
      c.child.kill("SIGINT");
      await until(() => c.code !== undefined, `the child to give up (stderr: ${c.stderr})`, {
        timeoutMs: 10_000,
      });
      await c.exited;
      expect(c.code).toBe(1);
      expect(c.stderr).toContain("SIGINT received again while closing: gave up waiting for the disk");
      expect(JSON.parse(c.stdout)).toMatchObject({ drainAbandoned: { signal: "SIGINT" } });
    } finally {
      if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill("SIGKILL");
    }
  }, 40_000);
});
