import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { startPaperDaemon } from "../../../src/app/paper-daemon.js";
import { packageRoot } from "../../../src/config/paths.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { memoryLogger, WALLET } from "../daemon/support.js";

describe("paper mode's journal", () => {
  it("goes to a fresh temp file of its own, named in the log for mm report", async () => {
    const { logger, sink } = memoryLogger();
    const paper = await startPaperDaemon({ env: {}, cwd: packageRoot(), port: 0, flow: false, logger });
    const path = paper.journal?.path ?? "";
    try {
      expect(path.startsWith(join(tmpdir(), "mm-paper-"))).toBe(true);
      expect((await paper.stop("test over")).exitCode).toBe(0);
      expect(existsSync(path)).toBe(true);
      const db = openJournalDb(path, { mustExist: true });
      expect(db.prepare("SELECT account, stop_reason, open_at_stop FROM runs").all()).toEqual([
        { account: `${paper.mock.httpUrl}|${WALLET}`, stop_reason: "test over", open_at_stop: 0n },
      ]);
      expect((db.prepare("SELECT count(*) AS n FROM tokens").get() as { n: bigint }).n).toBeGreaterThan(0n);
      db.close();
      expect(
        sink.records().some((r) => r.msg === `paper: this run's journal: mm report --journal ${path}`),
      ).toBe(true);
    } finally {
      rmSync(dirname(path), { recursive: true, force: true });
    }
  }, 20_000);

  it("mm paper --config live.json: not live.json's journal.path, so no paper fill lands in the live journal", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mm-paper-live-"));
    const live = join(dir, "live.sqlite");
    const file = join(dir, "live.json");
    writeFileSync(file, JSON.stringify({ journal: { path: live } }));
    const { logger, sink } = memoryLogger();
    const paper = await startPaperDaemon({ files: [file], env: {}, cwd: dir, port: 0, flow: false, logger });
    const path = paper.journal?.path ?? "";
    try {
      expect((await paper.stop("test over")).exitCode).toBe(0);
      expect(path.startsWith(join(tmpdir(), "mm-paper-"))).toBe(true);
      expect(existsSync(live)).toBe(false);
      expect(sink.records().some((r) => String(r.msg).includes("--journal FILE"))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      if (path !== "") rmSync(dirname(path), { recursive: true, force: true });
    }
  }, 20_000);
});
