import { mkdirSync } from "node:fs";
import { basename, join } from "node:path";
import { createRecordCommand } from "../../../src/cli/record.js";
import { type RecordedFrame, RecordedWriter, readRecorded } from "../../../src/recorded/format.js";
import { type Mock, until } from "../gateway/harness.js";

/** The CliIo of an in-process `mm record` against `mock`, run in `cwd`: what it prints is kept. */
export function recordIo(mock: Mock, cwd: string) {
  const out: string[] = [];
  const err: string[] = [];
  const io = {
    stdout: (t: string) => void out.push(t),
    stderr: (t: string) => void err.push(t),
    env: {
      MM_API_KEY: mock.key,
      MM_EXCHANGE_WS_URL: mock.wsUrl,
      MM_EXCHANGE_BASE_URL: mock.httpUrl,
      MM_LOG_LEVEL: "warn",
    },
    cwd,
  };
  return { io, out, err };
}

/** Every frame of the recorded `files`, in file order. */
export async function readAll(files: readonly string[]): Promise<RecordedFrame[]> {
  const all: RecordedFrame[] = [];
  for (const f of files) for await (const rec of readRecorded(f)) all.push(rec);
  return all;
}

/**
 * Starts an in-process `mm record ARGS` against `mock` in `cwd` and waits until it says it is
 * recording; `ac.abort()` stops it like a signal, `running` is its exit code.
 */
export async function startRecording(mock: Mock, cwd: string, args: readonly string[]) {
  const { io, out, err } = recordIo(mock, cwd);
  const ac = new AbortController();
  const running = createRecordCommand({ signal: ac.signal }).run([...args], io);
  await until(() => err.some((l) => l.includes("recording")), "the recorder to subscribe");
  return { io, out, err, ac, running };
}

/** Copies of `files` into `dir` (same names) without their carried frames: as recorded before. */
export async function withoutCarried(files: readonly string[], dir: string): Promise<string[]> {
  mkdirSync(dir);
  const out: string[] = [];
  for (const f of files) {
    const path = join(dir, basename(f));
    const w = RecordedWriter.create(path);
    for (const r of await readAll([f])) if (r.frame.sid !== "carry") await w.write(r);
    await w.close();
    out.push(path);
  }
  return out;
}
