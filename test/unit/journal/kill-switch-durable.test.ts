import type { Database, Statement } from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { openJournalDb } from "../../../src/journal/open.js";
import { JournalWriter, type KillSwitchRecord } from "../../../src/journal/writer.js";
import { ACCOUNT, journalPath } from "./support.js";

const TRIP: KillSwitchRecord = {
  atMs: Date.UTC(2025, 5, 1, 12),
  action: "trip",
  peakMicro: 2_000_000n,
  pnlMicro: -1_500_000n,
  drawdownMicro: 3_500_000n,
  limitMicro: 1_000_000n,
};

/**
 * The journal's connection, recording what the writer does with it: each pragma it sets and each
 * statement it runs (the first words of its SQL), in order. Under synchronous=NORMAL no file
 * content tells a commit that was fsynced from one that was not, so the order of these calls is
 * what shows it.
 */
function recording(db: Database): { db: Database; calls: string[] } {
  const calls: string[] = [];
  const wrapStatement = (s: Statement, sql: string): Statement =>
    new Proxy(s, {
      get(target, prop, receiver) {
        const v = Reflect.get(target, prop, receiver);
        if (prop !== "run" || typeof v !== "function") return typeof v === "function" ? v.bind(target) : v;
        return (...args: unknown[]) => {
          calls.push(`run ${sql.trim().split(/\s+/).slice(0, 3).join(" ")}`);
          return (v as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  const wrapped = new Proxy(db, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver);
      if (prop === "prepare")
        return (sql: string) => wrapStatement((v as Database["prepare"]).call(target, sql), sql);
      if (prop === "pragma")
        return (source: string, opts?: { simple?: boolean }) => {
          if (source.includes("=")) calls.push(`pragma ${source.replace(/\s+/g, "")}`);
          return (v as Database["pragma"]).call(target, source, opts);
        };
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
  return { db: wrapped, calls };
}

describe("a kill-switch trip survives a power loss (synchronous=normal)", () => {
  it("is committed with the WAL fsynced (synchronous FULL for its commit), the connection left at NORMAL", () => {
    const real = openJournalDb(journalPath()); // sync normal, the default
    const { db, calls } = recording(real);
    const w = new JournalWriter(db);
    const run = w.beginRun({ account: ACCOUNT, session: "s1", atMs: 1, tokens: [] });
    calls.length = 0;
    w.killSwitch(run, TRIP);
    expect(calls).toEqual([
      "pragma synchronous=FULL",
      "run INSERT INTO kill_switch",
      "pragma synchronous=NORMAL",
    ]);
    expect(Number(real.pragma("synchronous", { simple: true }))).toBe(1); // NORMAL
    // A re-arm is not: losing it only starts the next run tripped, the safe way round.
    calls.length = 0;
    w.killSwitch(run, { ...TRIP, action: "rearm", atMs: TRIP.atMs + 1 });
    expect(calls).toEqual(["run INSERT INTO kill_switch"]);
    expect(real.prepare("SELECT action FROM kill_switch ORDER BY id").pluck().all()).toEqual([
      "trip",
      "rearm",
    ]);
    real.close();
  });
});
