import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ConfigIssue } from "../../../src/config/errors.js";
import { type KeyFileStat, readSecretFile } from "../../../src/config/secret-file.js";

const KEY_A = `mm_live_0123456789abcdef_${"A".repeat(43)}`;
const KEY_B = `mm_live_fedcba9876543210_${"B".repeat(42)}A`;

interface FakeFile {
  readonly mode: number;
  readonly text: string;
  /** What its stat says (default: the text's length): a file still growing says less. */
  readonly size?: number;
}

/**
 * A file system where the key file's path names `first` at its first lookup and `later` at every
 * lookup after (a key rotated by renaming a new file over it between two lookups). Descriptors keep
 * the file they were opened on, as real ones do. Counts the path's lookups.
 */
function swappingFs(first: FakeFile, later: FakeFile) {
  let lookups = 0;
  const fds = new Map<number, FakeFile>();
  const lookup = (): FakeFile => (lookups++ === 0 ? first : later);
  const stat = (f: FakeFile): KeyFileStat => ({
    isFile: () => true,
    mode: 0o100000 | f.mode,
    size: f.size ?? Buffer.byteLength(f.text),
  });
  return {
    get lookups() {
      return lookups;
    },
    statSync: (_path: string) => stat(lookup()),
    readFileSync: (_path: string, _enc: "utf8") => lookup().text,
    openSync: (_path: string, _flags: number) => {
      const fd = 10 + fds.size;
      fds.set(fd, lookup());
      return fd;
    },
    fstatSync: (fd: number) => stat(fds.get(fd) as FakeFile),
    readSync: (fd: number, buffer: Uint8Array, offset: number, length: number, position: number | null) => {
      const bytes = Buffer.from((fds.get(fd) as FakeFile).text);
      const from = position ?? 0;
      const n = Math.max(0, Math.min(length, bytes.length - from));
      buffer.set(bytes.subarray(from, from + n), offset);
      return n;
    },
    closeSync: (fd: number) => {
      fds.delete(fd);
    },
  };
}

/*
 * A key file's checks (a regular file, mode 0600, small) and its read used to be two lookups of its
 * path: replaced in between (a rotation renaming a new file over it), the key used was not the file
 * checked, e.g. one readable by every user of the machine. The file is now opened once: the checks
 * and the read are of that one file.
 */
describe("readSecretFile: one file is checked and read", () => {
  it("a key file replaced between the check and the read: the key read is the checked file's", () => {
    const fs = swappingFs({ mode: 0o600, text: `${KEY_A}\n` }, { mode: 0o644, text: `${KEY_B}\n` });
    const issues: ConfigIssue[] = [];
    const text = readSecretFile("/keys/api.key", "secrets.apiKeyFile", issues, { platform: "linux", fs });
    expect(issues).toEqual([]);
    expect(text).toBe(KEY_A);
    expect(fs.lookups).toBe(1);
  });

  it("the other way round: a group-readable file is refused, whatever replaces it", () => {
    const fs = swappingFs({ mode: 0o644, text: KEY_A }, { mode: 0o600, text: KEY_B });
    const issues: ConfigIssue[] = [];
    expect(readSecretFile("/keys/api.key", "secrets.apiKeyFile", issues, { platform: "linux", fs })).toBe(
      undefined,
    );
    expect(issues.map((i) => i.message)).toEqual([
      "/keys/api.key is accessible by group or others (mode 0644); run chmod 600 on it",
    ]);
  });
});

describe("readSecretFile: a file that grows after its stat", () => {
  it("is refused, read no further than one byte past the bound", () => {
    const growing = { mode: 0o600, text: "x".repeat(100_000), size: 80 };
    const fs = swappingFs(growing, growing);
    const issues: ConfigIssue[] = [];
    expect(readSecretFile("/keys/api.key", "secrets.apiKeyFile", issues, { platform: "linux", fs })).toBe(
      undefined,
    );
    expect(issues.map((i) => i.message)).toEqual([
      "/keys/api.key is over 16384 bytes, too large to be a key file",
    ]);
  });
});

describe("readSecretFile: real files", () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it("reads a 0600 file and refuses a larger one than a key file can be, reading at most the bound", () => {
    dir = mkdtempSync(join(tmpdir(), "mm-key-"));
    const ok = join(dir, "api.key");
    writeFileSync(ok, `${KEY_A}\n`, { mode: 0o600 });
    chmodSync(ok, 0o600);
    const big = join(dir, "big.key");
    writeFileSync(big, "x".repeat(20_000), { mode: 0o600 });
    chmodSync(big, 0o600);
    const issues: ConfigIssue[] = [];
    expect(readSecretFile(ok, "secrets.apiKeyFile", issues, { platform: process.platform })).toBe(KEY_A);
    expect(readSecretFile(big, "secrets.apiKeyFile", issues, { platform: process.platform })).toBe(undefined);
    expect(issues.map((i) => i.message)).toEqual([`${big} is 20000 bytes, too large to be a key file`]);
  });

  it.skipIf(process.platform === "win32")(
    "a named pipe is refused at once, not waited on for a writer",
    () => {
      dir = mkdtempSync(join(tmpdir(), "mm-key-"));
      const fifo = join(dir, "api.key");
      execFileSync("mkfifo", ["-m", "600", fifo]);
      const issues: ConfigIssue[] = [];
      expect(readSecretFile(fifo, "secrets.apiKeyFile", issues, { platform: process.platform })).toBe(
        undefined,
      );
      expect(issues.map((i) => i.message)).toEqual([`${fifo} is not a regular file`]);
    },
  );
});
