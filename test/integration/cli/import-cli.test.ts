import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { packageRoot } from "../../../src/config/paths.js";
import { readRecorded } from "../../../src/recorded/format.js";

const root = packageRoot();
const capture = resolve(
  root,
  "../shared/data/polymarket-price-changes/price_change_messages_202501302221.csv",
);
const dir = mkdtempSync(join(tmpdir(), "mm-import-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function mm(...args: string[]) {
  return spawnSync(process.execPath, ["--import", "tsx", "src/cli/main.ts", ...args], {
    cwd: root,
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "" },
  });
}

describe("mm import (child process)", () => {
  it("is listed by mm --help", () => {
    const r = mm("--help");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^\s+import\s+/m);
  });

  it("converts the real Polymarket capture into the recorded format", async () => {
    const out = join(dir, "capture.jsonl.gz");
    const r = mm("import", "--format", "polymarket-price-change-csv", capture, out);
    expect(r.status, r.stderr).toBe(0);
    expect(statSync(out).size).toBeGreaterThan(0);
    let frames = 0;
    let lastSeq = 0;
    for await (const rec of readRecorded(out)) {
      const data = rec.frame.data as { seq: number; prevSeq?: number };
      if (frames > 0) expect(data.prevSeq).toBe(lastSeq);
      lastSeq = data.seq;
      frames++;
    }
    expect(frames).toBe(3_830);
  });

  it("exits 2 naming the problem for an unknown format or a missing input", () => {
    const bad = mm("import", "--format", "nope", capture, join(dir, "x.jsonl.gz"));
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/format/);
    const missing = mm(
      "import",
      "--format",
      "polymarket-price-change-csv",
      join(dir, "absent.csv"),
      join(dir, "y.jsonl.gz"),
    );
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/absent\.csv/);
  });
});
