import { spawn } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../../../src/config/paths.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { journalPath } from "./support.js";

const CHILD = join(packageRoot(), "test", "unit", "journal", "crash-child.ts");

describe("journal crash safety", () => {
  it("keeps every committed fill of a writer killed with SIGKILL mid-stream, and no half of one", async () => {
    const path = journalPath();
    const child = spawn(process.execPath, ["--import", "tsx", CHILD, path], {
      cwd: packageRoot(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let acked = 0;
    let buf = "";
    let err = "";
    child.stderr.setEncoding("utf8").on("data", (c: string) => {
      err += c;
    });
    const exited = new Promise<string | number | null>((resolve) =>
      child.once("exit", (code, signal) => resolve(signal ?? code)),
    );
    await new Promise<void>((resolve, reject) => {
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        buf += chunk;
        const lines = buf.split("\n");
        buf = lines.pop() ?? "";
        for (const l of lines) acked = Math.max(acked, Number(l));
        // Kill while it is writing as fast as it can, well into the stream.
        if (acked >= 3_000 && child.exitCode === null && child.signalCode === null) {
          child.kill("SIGKILL");
          resolve();
        }
      });
      void exited.then(() => reject(new Error(`the writer ended on its own: ${err}`)));
    });
    expect(await exited).toBe("SIGKILL");

    const db = openJournalDb(path);
    expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
    const fills = db
      .prepare("SELECT count(*) AS n, max(CAST(substr(trade_id, 2) AS INTEGER)) AS last FROM fills")
      .get() as {
      n: bigint;
      last: bigint;
    };
    const accounts = db.prepare("SELECT count(*) AS n, max(size_micro) AS size FROM accounts").get() as {
      n: bigint;
      size: bigint;
    };
    // Every fill acknowledged before the kill is there (a committed write survives the process)...
    expect(Number(fills.n)).toBeGreaterThanOrEqual(acked);
    // ...numbered without a gap, each with the account row of its transaction (none half-written).
    expect(fills.last).toBe(fills.n);
    expect(accounts.n).toBe(fills.n);
    expect(accounts.size).toBe(fills.n * 1_000_000n);
    db.close();
  }, 20_000);
});
