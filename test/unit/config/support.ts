import { randomBytes } from "node:crypto";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";
import { ConfigError } from "../../../src/config/errors.js";

/** Hardhat's first dev account: a public test key, never a real one. */
export const PRIVATE_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
export const PRIVATE_KEY_ADDRESS = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

/** A well-formed API key with a fresh random secret. */
export function makeApiKey(env: "live" | "test" = "live"): { key: string; keyId: string; secret: string } {
  const keyId = randomBytes(8).toString("hex");
  const secret = randomBytes(32).toString("base64url");
  return { key: `mm_${env}_${keyId}_${secret}`, keyId, secret };
}

/** A temp folder per test, removed by `cleanup()`. */
export function tempDir(): {
  dir: string;
  file: (name: string, content: unknown, mode?: number) => string;
  cleanup: () => void;
} {
  const dir = mkdtempSync(join(tmpdir(), "mm-config-test-"));
  return {
    dir,
    file(name, content, mode = 0o600) {
      const path = join(dir, name);
      writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
      chmodSync(path, mode);
      return path;
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * A fresh tempDir for each test of the file, removed after it: call at the file's top level; `dir`
 * and `file` act on the current test's folder.
 * @example const tmp = tempDirPerTest(); it("…", () => loadConfig({ files: [tmp.file("a.json", {})] }));
 */
export function tempDirPerTest(): {
  readonly dir: string;
  file: (name: string, content: unknown, mode?: number) => string;
} {
  let current: ReturnType<typeof tempDir> | undefined;
  beforeEach(() => {
    current = tempDir();
  });
  afterEach(() => {
    current?.cleanup();
    current = undefined;
  });
  const now = (): ReturnType<typeof tempDir> => {
    if (current === undefined) throw new Error("tempDirPerTest: a folder exists only inside a test");
    return current;
  };
  return {
    get dir() {
      return now().dir;
    },
    file: (name, content, mode) => now().file(name, content, mode),
  };
}

/** Runs `fn`, which must throw a ConfigError, and returns it. */
export function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
  throw new Error("expected a ConfigError, nothing was thrown");
}

/** The fields of a ConfigError's issues. */
export const fields = (e: ConfigError): string[] => e.issues.map((i) => i.field);
