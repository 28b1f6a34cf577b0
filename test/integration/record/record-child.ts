import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { packageRoot } from "../../../src/config/paths.js";
import { type Mock, until } from "../gateway/harness.js";

/** A `mm record` child process: its output so far and its end (exit code, or the signal's name). */
export interface RecordChild {
  readonly child: ChildProcessWithoutNullStreams;
  stdout: string;
  stderr: string;
  code: number | string | undefined;
  readonly exited: Promise<void>;
}

/**
 * Runs `mm record ARGS` against `mock` in a child process (a script written into `dir`) whose disk
 * is `sink` — a JavaScript expression, with `imports` above it — and waits until it records: for
 * what only a real process shows (real signals, a file operation stuck in the kernel). `env` is
 * added to the child's. The caller kills it (SIGKILL) if it is still running at the end.
 */
export async function recordInChild(
  mock: Mock,
  dir: string,
  o: { imports: string; sink: string; args: readonly string[]; env?: Record<string, string> },
): Promise<RecordChild> {
  const script = join(dir, "run-record.mjs");
  writeFileSync(
    script,
    `${o.imports}
const { createRecordCommand } = await import(process.env.MM_RECORD_MODULE);
const cmd = createRecordCommand({ openSink: () => ${o.sink} });
process.exitCode = await cmd.run(process.argv.slice(2), {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  env: process.env,
  cwd: process.cwd(),
});
`,
  );
  const child = spawn(process.execPath, ["--import", "tsx", script, ...o.args], {
    cwd: packageRoot(),
    env: {
      PATH: process.env.PATH ?? "",
      MM_API_KEY: mock.key,
      MM_EXCHANGE_WS_URL: mock.wsUrl,
      MM_LOG_LEVEL: "warn",
      MM_RECORD_MODULE: resolve(packageRoot(), "src/cli/record.ts"),
      ...o.env,
    },
  });
  const r = {
    child,
    stdout: "",
    stderr: "",
    code: undefined as number | string | undefined,
    exited: new Promise<void>((ok) =>
      child.once("exit", (c, sig) => {
        r.code = c ?? sig ?? "?";
        ok();
      }),
    ),
  };
  child.stdout.on("data", (d) => (r.stdout += String(d)));
  child.stderr.on("data", (d) => (r.stderr += String(d)));
  try {
    await until(() => r.stderr.includes("recording"), `the child to subscribe (stderr: ${r.stderr})`, {
      timeoutMs: 15_000,
    });
  } catch (err) {
    child.kill("SIGKILL");
    throw err;
  }
  return r;
}
