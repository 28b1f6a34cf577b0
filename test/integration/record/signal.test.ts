import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { packageRoot } from "../../../src/config/paths.js";
import { readRecorded } from "../../../src/recorded/format.js";
import { churn, type Mock, market, startMock, until } from "../gateway/harness.js";

const dir = mkdtempSync(join(tmpdir(), "mm-record-signal-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let mock: Mock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

// The lead registers `record` in src/cli/commands.ts; until then this runs the command module itself.
const SCRIPT = `
const { recordCommand } = await import(process.env.MM_RECORD_MODULE);
process.exitCode = await recordCommand.run(process.argv.slice(2), {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  env: process.env,
  cwd: process.cwd(),
});
`;

describe("mm record in a child process", () => {
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    it(`${sig} flushes and closes the current file, prints the summary and exits 0`, async () => {
      mock = await startMock();
      const m = market(mock);
      const script = join(dir, "run-record.mjs");
      writeFileSync(script, SCRIPT);
      const out = join(dir, sig);
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
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d) => (stdout += String(d)));
      child.stderr.on("data", (d) => (stderr += String(d)));
      const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
      await until(() => stderr.includes("recording"), `the child to subscribe (stderr: ${stderr})`, {
        timeoutMs: 15_000,
      });
      churn(mock, m, 60, 1);
      await new Promise((r) => setTimeout(r, 300));
      child.kill(sig);
      expect(await exited).toBe(0);
      const summary = JSON.parse(stdout) as { files: string[]; frames: number };
      expect(summary.frames).toBeGreaterThan(10);
      let n = 0;
      for (const f of summary.files) for await (const _ of readRecorded(f)) n++;
      expect(n).toBe(summary.frames);
      expect(stderr).not.toContain(mock.key.split("_")[3] ?? "?");
    });
  }

  it("keeps running while the exchange is unreachable (back-off), and still stops cleanly on SIGINT", async () => {
    const script = join(dir, "run-record.mjs");
    writeFileSync(script, SCRIPT);
    const out = join(dir, "unreachable");
    const child = spawn(process.execPath, ["--import", "tsx", script, "--tokens", "123", "--out", out], {
      cwd: packageRoot(),
      env: {
        PATH: process.env.PATH ?? "",
        MM_API_KEY: `mm_test_0123456789abcdef_${Buffer.alloc(32, 1).toString("base64url")}`,
        MM_EXCHANGE_WS_URL: "ws://127.0.0.1:1", // nothing listens: connection refused, back-off, retry
        MM_RECORD_MODULE: resolve(packageRoot(), "src/cli/record.ts"),
      },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += String(d)));
    child.stderr.on("data", (d) => (stderr += String(d)));
    let exitCode: number | null | undefined;
    const exited = new Promise<void>((r) =>
      child.once("exit", (code) => {
        exitCode = code;
        r();
      }),
    );
    // Several refused attempts, not a fixed wait: on a loaded machine tsx's start-up alone can take
    // longer, and a SIGINT before the command installed its handler kills the child outright.
    await until(() => stderr.includes('"attempt":2,'), `two reconnect attempts (stderr: ${stderr})`, {
      timeoutMs: 15_000,
    });
    expect(exitCode).toBeUndefined();
    child.kill("SIGINT");
    await exited;
    expect(exitCode).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ frames: 0, files: [], fatal: null });
  });
});
