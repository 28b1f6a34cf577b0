import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { hostname } from "node:os";
import { describe, expect, it, onTestFinished } from "vitest";
import { packageRoot } from "../../../src/config/paths.js";
import { accountLockFiles, lockJournalAccount } from "../../../src/journal/account-lock.js";
import { JournalError } from "../../../src/journal/errors.js";
import { journalPath } from "./support.js";

const ACCOUNT = "http://127.0.0.1:8080|0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266";
const OTHER_ACCOUNT = "http://127.0.0.1:8080|0x9965507d1a55bcc2695c58ba16fb37d819b0a4dc";
const T0 = Date.UTC(2025, 5, 1, 12);

/** What taking the lock throws (the test fails when it is taken). */
function refusal(journal: string, account: string): JournalError {
  let lock: ReturnType<typeof lockJournalAccount> | undefined;
  try {
    lock = lockJournalAccount(journal, account, { session: "s2", atMs: T0 + 1 });
  } catch (err) {
    expect(err).toBeInstanceOf(JournalError);
    return err as JournalError;
  }
  lock.release();
  throw new Error("the lock was taken");
}

/** A child process holding the lock of `account` on `journal` (hold-account-lock.ts), once it says so. */
async function holder(journal: string, account: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "test/unit/journal/hold-account-lock.ts", journal, account],
    { cwd: packageRoot(), stdio: ["ignore", "pipe", "pipe"] },
  );
  onTestFinished(() => {
    child.kill("SIGKILL");
  });
  let out = "";
  let err = "";
  child.stderr?.setEncoding("utf8").on("data", (c: string) => {
    err += c;
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.setEncoding("utf8").on("data", (c: string) => {
      out += c;
      if (out.includes("held\n")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`the holder exited (${code}) before holding: ${err}`)));
  });
  return child;
}

describe("the run lock of a journal account", () => {
  it("refuses a second holder of the same account, naming the account and the live run", () => {
    const journal = journalPath();
    const lock = lockJournalAccount(journal, ACCOUNT, { session: "s1", atMs: T0 });
    lock.setRun(7);
    const err = refusal(journal, ACCOUNT);
    expect(err.code).toBe("journal_account_in_use");
    expect(err.message).toContain(ACCOUNT);
    expect(err.message).toContain(`pid ${process.pid}`);
    expect(err.message).toContain(hostname());
    expect(err.message).toContain("run 7");
    expect(err.message).toContain(new Date(T0).toISOString());
    expect(err.details).toMatchObject({
      account: ACCOUNT,
      holder: { pid: process.pid, host: hostname(), run: 7, session: "s1", startedAtMs: T0 },
    });
    // Refused again: a failed attempt does not weaken the holder's lock.
    expect(refusal(journal, ACCOUNT).code).toBe("journal_account_in_use");
    const files = accountLockFiles(journal, ACCOUNT);
    expect(lock.file).toBe(files.lock);
    expect(statSync(files.lock).mode & 0o777).toBe(0o600);
    expect(statSync(files.note).mode & 0o777).toBe(0o600);
    lock.release();
    lock.release(); // idempotent
    // The note goes with a clean release; the lock file stays (unlinking it would race a taker).
    expect(existsSync(files.note)).toBe(false);
    expect(existsSync(files.lock)).toBe(true);
    const next = lockJournalAccount(journal, ACCOUNT, { session: "s3", atMs: T0 + 2 });
    next.release();
  });

  it("lets other accounts share the journal file", () => {
    const journal = journalPath();
    const a = lockJournalAccount(journal, ACCOUNT, { session: "s1", atMs: T0 });
    const b = lockJournalAccount(journal, OTHER_ACCOUNT, { session: "s2", atMs: T0 });
    b.release();
    a.release();
  });

  it("does not touch the journal file itself, and needs none for :memory:", () => {
    const journal = journalPath();
    const lock = lockJournalAccount(journal, ACCOUNT, { session: "s1", atMs: T0 });
    expect(existsSync(journal)).toBe(false);
    lock.release();
    const mem = lockJournalAccount(":memory:", ACCOUNT, { session: "s1", atMs: T0 });
    lockJournalAccount(":memory:", ACCOUNT, { session: "s2", atMs: T0 }).release();
    mem.release();
  });

  it("is held by another process until it dies: a SIGKILLed holder blocks nothing", async () => {
    const journal = journalPath();
    const child = await holder(journal, ACCOUNT);
    const err = refusal(journal, ACCOUNT);
    expect(err.message).toContain(`pid ${child.pid}`);
    expect(err.message).toContain("run 42");
    // The same file, another account: not blocked by the child.
    lockJournalAccount(journal, OTHER_ACCOUNT, { session: "s2", atMs: T0 }).release();

    const gone = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await gone;
    // The kernel dropped the dead process's lock; its holder note is stale and ignored.
    const lock = lockJournalAccount(journal, ACCOUNT, { session: "s3", atMs: T0 + 5 });
    lock.setRun(43);
    const again = refusal(journal, ACCOUNT);
    expect(again.message).toContain(`pid ${process.pid}`);
    expect(again.message).toContain("run 43");
    lock.release();
  }, 20_000);
});
