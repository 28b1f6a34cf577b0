import { spawn } from "node:child_process";
import fs, { readFileSync, writeFileSync } from "node:fs";
import { createRequire, syncBuiltinESMExports } from "node:module";
import { describe, expect, it } from "vitest";
import { checkJournalIntact } from "../../../src/journal/integrity.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { openJournalReader } from "../../../src/journal/open-read.js";
import { scanWal } from "../../../src/journal/wal-check.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import { ACCOUNT, journalPath } from "./support.js";

const HEADER = 32;
const FRAME_HEADER = 24;

/**
 * Found in review (s20): the WAL scan reads a live daemon's -wal without any lock. After a checkpoint
 * the writer restarts the WAL and overwrites its frames in place, each frame with two writes (the
 * 24-byte frame header, then the page: SQLite's walWriteOneFrame). A scan that reads a frame between
 * those two writes sees a frame whose checksum fails; when the writer finishes it and commits before
 * the scan gets there, the commit frames after it verify against their predecessors' stored
 * checksums, and the healthy journal is called damaged: `mm report` exits 2, and a second daemon (of
 * another account: accounts share the journal) refuses to start. The header re-read does not catch
 * it: the header does not change within a generation. So a break counts only when a second scan, a
 * moment later, finds the very same one (scanWal).
 */
describe("the WAL scan of a journal a live daemon is writing", () => {
  it("does not call a healthy live journal damaged when a frame is read between its header and page writes", () => {
    const path = journalPath();
    const db = openJournalDb(path); // the live daemon's connection, open throughout
    try {
      db.pragma("wal_autocheckpoint = 0");
      const writer = new JournalWriter(db);
      let n = 0;
      const commit = () =>
        writer.beginRun({ account: ACCOUNT, session: `s${n++}`, atMs: 1_000 + n, tokens: [] });
      for (let i = 0; i < 40; i++) commit();
      db.pragma("wal_checkpoint(PASSIVE)"); // every frame backfilled: the next write restarts the WAL
      commit(); // new generation: frames 1..a, the previous generation's stale frames after them
      const s1 = readFileSync(`${path}-wal`);
      const frameSize = FRAME_HEADER + s1.readUInt32BE(8);
      const walFrames = (b: Buffer) => {
        let last = 0;
        for (let i = 1; HEADER + i * frameSize <= b.length; i++)
          if (
            b
              .subarray(HEADER + (i - 1) * frameSize + 8, HEADER + (i - 1) * frameSize + 16)
              .equals(b.subarray(16, 24))
          )
            last = i;
          else break;
        return last;
      };
      const a = walFrames(s1);
      commit();
      commit();
      const s2 = readFileSync(`${path}-wal`);
      const b = walFrames(s2);
      expect(a).toBeGreaterThan(0);
      expect(b - a).toBeGreaterThanOrEqual(2);
      expect(s2.length).toBe(s1.length); // overwritten in place, over stale frames
      // Both states are healthy, read whole.
      expect(scanWal(path)?.lostCommits).toBe(0);
      writeFileSync(`${path}-wal`, s1);
      expect(scanWal(path)?.lostCommits).toBe(0);

      // The writer's pwrites of frames a+1..b, interleaved with the scan as they happen: the scan
      // reads frame a+1 after its header was written and before its page was.
      const torn = HEADER + a * frameSize;
      const real = fs.readSync;
      let wrote = false;
      let reads = 0; // of the torn frame: once by the first scan, again by the one that confirms a break
      (fs as { readSync: unknown }).readSync = (
        fd: number,
        buf: Buffer,
        off: number,
        len: number,
        pos: number,
      ) => {
        if (pos === torn && len === frameSize) reads++;
        if (!wrote && pos === torn && len === frameSize) {
          wrote = true;
          const w = fs.openSync(`${path}-wal`, "r+");
          fs.writeSync(w, s2, torn, FRAME_HEADER, torn); // the frame header
          const got = real(fd, buf, off, len, pos); // the scan reads here
          fs.writeSync(
            w,
            s2,
            torn + FRAME_HEADER,
            HEADER + b * frameSize - torn - FRAME_HEADER,
            torn + FRAME_HEADER,
          );
          fs.closeSync(w);
          return got;
        }
        return real(fd, buf, off, len, pos);
      };
      syncBuiltinESMExports();
      let scan: ReturnType<typeof scanWal>;
      try {
        scan = scanWal(path);
      } finally {
        (fs as { readSync: unknown }).readSync = real;
        syncBuiltinESMExports();
      }
      expect(wrote).toBe(true);
      expect(reads).toBeGreaterThanOrEqual(2); // the first scan saw the break; the second did not
      expect(readFileSync(`${path}-wal`).equals(s2)).toBe(true); // the writer's WAL, healthy
      expect(scan?.lostCommits).toBe(0);
    } finally {
      db.close();
    }
  });

  it("mm report's check of a journal a real writer restarts and rewrites: never a false 'damaged'", async () => {
    const path = journalPath();
    openJournalDb(path).close();
    const require = createRequire(import.meta.url);
    const sqlite = require.resolve("better-sqlite3");
    // A daemon's write pattern, sped up: small transactions, a checkpoint every 100 pages.
    const src = `
      const D = require(${JSON.stringify(sqlite)});
      const db = new D(${JSON.stringify(path)});
      db.pragma("journal_mode = WAL"); db.pragma("synchronous = NORMAL"); db.pragma("wal_autocheckpoint = 100");
      db.exec("CREATE TABLE IF NOT EXISTS load (id INTEGER PRIMARY KEY, v BLOB)");
      const ins = db.prepare("INSERT INTO load (v) VALUES (?)");
      const tx = db.transaction((k) => { for (let i = 0; i < k; i++) ins.run(Buffer.alloc(1500, i)); });
      process.stdout.write("ready\\n");
      const end = Date.now() + 4000;
      for (let i = 0; Date.now() < end; i++) { tx(1 + (i % 5)); if (i % 2000 === 0) db.exec("DELETE FROM load"); }
    `;
    const child = spawn(process.execPath, ["-e", src], { stdio: ["ignore", "pipe", "inherit"] });
    const exited = new Promise((r) => child.on("exit", r));
    await new Promise<void>((r) => child.stdout.once("data", () => r()));
    let scans = 0;
    const refusals: string[] = [];
    const end = Date.now() + 3000;
    while (Date.now() < end) {
      scans++;
      try {
        checkJournalIntact(path, { quickCheck: false }); // what openJournalReader runs first
      } catch (err) {
        refusals.push((err as Error).message.slice(0, 160));
      }
    }
    await exited;
    // The journal is healthy: SQLite reads it whole, and the scan then finds nothing.
    const reader = await openJournalReader(path);
    reader.close();
    expect(scans).toBeGreaterThan(100);
    expect(refusals.slice(0, 3)).toEqual([]);
  }, 20_000);
});
