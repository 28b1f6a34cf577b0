import * as nodeFs from "node:fs";
import type { ConfigIssue } from "./errors.js";

/** The largest key file read: a key is tens of bytes, anything this big is not one. */
export const MAX_KEY_FILE_BYTES = 16 * 1024;

/** What a key file's checks read of it. */
export interface KeyFileStat {
  isFile(): boolean;
  readonly mode: number;
  readonly size: number;
}

/**
 * The file operations a key file is read with (node:fs's, or a test's fake): by descriptor, so the
 * checks and the read are of one file.
 */
export interface KeyFileSystem {
  openSync(path: string, flags: number): number;
  fstatSync(fd: number): KeyFileStat;
  readSync(fd: number, buffer: Uint8Array, offset: number, length: number, position: number | null): number;
  closeSync(fd: number): void;
}

/**
 * Read-only, and without waiting: a named pipe put at the path would block the open until a writer
 * came (it is refused as no regular file once open). No-op flag where the platform has none.
 */
const OPEN_FLAGS = nodeFs.constants.O_RDONLY | (nodeFs.constants.O_NONBLOCK ?? 0);

/** How to read a key file: the platform (Windows has no mode bits to check) and the file system. */
export interface KeyFileOptions {
  readonly platform: NodeJS.Platform;
  readonly fs?: KeyFileSystem;
}

/**
 * A key file's text, trimmed, or undefined with an issue on `field` (never quoting the contents):
 * the file must be a regular file, not accessible by group or others, at most MAX_KEY_FILE_BYTES,
 * and not empty. The path is opened once and the checks and the read go through that descriptor:
 * two lookups of the path (a stat, then a read) could check one file and read another, one renamed
 * over it in between (a key rotation), never checked for its mode or size.
 * @example readSecretFile("/etc/mm/api.key", "secrets.apiKeyFile", issues, { platform: process.platform })
 */
export function readSecretFile(
  path: string,
  field: string,
  issues: ConfigIssue[],
  opts: KeyFileOptions,
): string | undefined {
  const fs = opts.fs ?? nodeFs;
  const cannot = (e: unknown) => {
    issues.push({ field, message: `cannot read ${path} (${(e as NodeJS.ErrnoException).code ?? "error"})` });
    return undefined;
  };
  let fd: number;
  try {
    fd = fs.openSync(path, OPEN_FLAGS);
  } catch (e) {
    return cannot(e);
  }
  try {
    const text = checkedText(fs, fd, path, field, opts.platform, issues);
    if (text === undefined) return undefined;
    if (text === "") {
      issues.push({ field, message: `${path} is empty` });
      return undefined;
    }
    return text;
  } catch (e) {
    return cannot(e);
  } finally {
    try {
      fs.closeSync(fd);
    } catch {
      // Read already (or refused): a failed close changes neither.
    }
  }
}

/** The open file's text, trimmed, once its checks pass; undefined with an issue when one fails. */
function checkedText(
  fs: KeyFileSystem,
  fd: number,
  path: string,
  field: string,
  platform: NodeJS.Platform,
  issues: ConfigIssue[],
): string | undefined {
  const stat = fs.fstatSync(fd);
  if (!stat.isFile()) {
    issues.push({ field, message: `${path} is not a regular file` });
    return undefined;
  }
  // Windows has no POSIX mode bits worth checking.
  if (platform !== "win32" && (stat.mode & 0o077) !== 0) {
    const mode = (stat.mode & 0o777).toString(8).padStart(4, "0");
    issues.push({
      field,
      message: `${path} is accessible by group or others (mode ${mode}); run chmod 600 on it`,
    });
    return undefined;
  }
  const tooLarge = (size: string) => {
    issues.push({ field, message: `${path} is ${size} bytes, too large to be a key file` });
    return undefined;
  };
  if (stat.size > MAX_KEY_FILE_BYTES) return tooLarge(String(stat.size));
  // One byte past the bound tells a file that grew since its stat: never read whole.
  const buffer = new Uint8Array(MAX_KEY_FILE_BYTES + 1);
  let length = 0;
  for (;;) {
    const n = fs.readSync(fd, buffer, length, buffer.length - length, length);
    length += n;
    if (n === 0 || length === buffer.length) break;
  }
  if (length > MAX_KEY_FILE_BYTES) return tooLarge(`over ${MAX_KEY_FILE_BYTES}`);
  return Buffer.from(buffer.buffer, 0, length).toString("utf8").trim();
}
