import { spawn } from "node:child_process";
import { EventEmitter } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createRecordCommand } from "../../../src/cli/record.js";
import { packageRoot } from "../../../src/config/paths.js";
import { churn, type Mock, market, settle, startMock, until } from "../gateway/harness.js";
import { GatedDisk } from "./gated-disk.js";
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
    const script = join(dir, "run-record.mjs");
    // A disk whose writes never complete (as hung-disk.test.ts's): the drain waits on it.
    writeFileSync(
      script,
      `
import { Writable } from "node:stream";
const { createRecordCommand } = await import(process.env.MM_RECORD_MODULE);
const cmd = createRecordCommand({ openSink: () => new Writable({ write() {} }) });
process.exitCode = await cmd.run(process.argv.slice(2), {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  env: process.env,
  cwd: process.cwd(),
});
`,
    );
    const child = spawn(
      process.execPath,
      ["--import", "tsx", script, "--tokens", m.yesTokenId, "--out", join(dir, "rec")],
      {
        cwd: packageRoot(),
        env: {
          PATH: process.env.PATH ?? "",
          MM_API_KEY: mock.key,
          MM_EXCHANGE_WS_URL: mock.wsUrl,
          MM_LOG_LEVEL: "warn",
          MM_RECORD_MODULE: resolve(packageRoot(), "src/cli/record.ts"),
        },
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += String(d)));
    child.stderr.on("data", (d) => (stderr += String(d)));
    let code: number | string | undefined;
    const exited = new Promise<void>((r) =>
      child.once("exit", (c, sig) => {
        code = c ?? sig ?? "?";
        r();
      }),
    );
    try {
      await until(() => stderr.includes("recording"), `the child to subscribe (stderr: ${stderr})`, {
        timeoutMs: 15_000,
      });
      churn(mock, m, 40, 1);
      await settle(300);
      child.kill("SIGINT");
      await settle(300);
      child.kill("SIGINT");
      await settle(500);
      expect(code).toBeUndefined(); // before: ended by the second SIGINT's default action
      await until(() => stderr.includes("stop asked again"), `the repeat to be logged (stderr: ${stderr})`);
      child.kill("SIGINT");
      await until(() => code !== undefined, `the child to give up (stderr: ${stderr})`, {
        timeoutMs: 10_000,
      });
      await exited;
      expect(code).toBe(1);
      expect(stderr).toContain("SIGINT received again while closing: gave up waiting for the disk");
      expect(JSON.parse(stdout)).toMatchObject({ drainAbandoned: { signal: "SIGINT" } });
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
  }, 40_000);
});
