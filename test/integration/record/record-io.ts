import { type RecordedFrame, readRecorded } from "../../../src/recorded/format.js";
import type { Mock } from "../gateway/harness.js";

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
