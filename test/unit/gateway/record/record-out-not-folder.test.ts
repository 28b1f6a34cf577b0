import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createRecordCommand } from "../../../../src/cli/record.js";

/*
 * Review s25 (walkrec): `mm record --out FILE` (a typo naming the config file, say) ended with
 * `mm record: unexpected error: EEXIST: file already exists, mkdir '…' (code EEXIST)`, exit 1 —
 * the code and wording of a bug, where README says bad usage exits 2. And `--out` under a file
 * (ENOTDIR) likewise. Both are refused as usage errors naming the option, before connecting.
 */

const root = mkdtempSync(join(tmpdir(), "mm-review-walkrec-out-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function io() {
  return {
    stdout: () => undefined,
    stderr: () => undefined,
    // Nothing listens there: the refusal must come before any connection.
    env: {
      MM_API_KEY: "mm_test_0123456789abcdef_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
      MM_EXCHANGE_WS_URL: "ws://127.0.0.1:9",
      MM_EXCHANGE_BASE_URL: "http://127.0.0.1:9",
    },
    cwd: root,
  };
}

describe("mm record --out that cannot be a folder", () => {
  const file = join(root, "live.json");
  writeFileSync(file, "{}");
  const cmd = createRecordCommand({ signal: AbortSignal.abort() });

  it("a file: usage error naming --out", async () => {
    await expect(cmd.run(["--tokens", "12", "--out", "live.json"], io())).rejects.toMatchObject({
      code: "usage_error",
      message: expect.stringContaining("--out live.json"),
    });
  });

  it("a path under a file: usage error naming --out", async () => {
    await expect(cmd.run(["--tokens", "12", "--out", "live.json/rec"], io())).rejects.toMatchObject({
      code: "usage_error",
      message: expect.stringContaining("--out live.json/rec"),
    });
  });
});
