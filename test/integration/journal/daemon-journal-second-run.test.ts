import { hostname } from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import { startDaemon } from "../../../src/app/daemon.js";
import type { CliIo } from "../../../src/cli/command.js";
import { main } from "../../../src/cli/main.js";
import { ConfigError } from "../../../src/config/errors.js";
import type { MockExchange } from "../../../src/mock/mock-exchange.js";
import { type MmChild, reap, spawnMm } from "../../e2e/support.js";
import {
  daemonConfig,
  daemonEnv,
  market,
  memoryLogger,
  openOnMock,
  seedMarket,
  settledQuotes,
  startMock,
  WALLET,
  waitFor,
} from "../daemon/support.js";
import { journalDaemonSlots, journalIn } from "./support.js";

const ARG = market("arg-vs-fra-final-arg-win");
const YES = ARG.yesTokenId;

let child: MmChild | undefined;
let second: MmChild | undefined;
let otherMock: MockExchange | undefined;
const slots = journalDaemonSlots();
afterEach(async () => {
  await reap(second);
  await reap(child);
  child = undefined;
  second = undefined;
  await otherMock?.close();
  otherMock = undefined;
});

function io(env: Record<string, string>): CliIo & { out: () => string; err: () => string } {
  let out = "";
  let err = "";
  return {
    stdout: (t) => {
      out += t;
    },
    stderr: (t) => {
      err += t;
    },
    env,
    cwd: process.cwd(),
    out: () => out,
    err: () => err,
  };
}

/** The wallet's open order ids on the mock, sorted. */
const openIds = (m: MockExchange): string[] =>
  openOnMock(m, YES)
    .map((o) => o.orderId)
    .sort();

describe("a second daemon on the account and journal of a live one", () => {
  it("mm run refuses to start (exit 2) naming the account and the live run, and leaves its orders alone; mm report still reads; once the live one is SIGKILLed the next start goes ahead", async () => {
    slots.mock = await startMock();
    const m = slots.mock;
    seedMarket(m, ARG, "0.30", "0.70");
    const journal = journalIn(slots, "mm-journal-second-");
    const env = daemonEnv(m, [ARG.slug], { MM_JOURNAL_PATH: journal.path, MM_LOG_LEVEL: "silent" });

    child = spawnMm(["run"], { ...env, MM_LOG_LEVEL: "info", MM_ENGINE_SESSION: "live" });
    await child.waitFor((r) => r.msg === "engine started", 20_000, "the live run's engine");
    await settledQuotes(m, YES, 4);
    const live = openIds(m);

    // The second `mm run`, another process like the first: it must end by itself, refused.
    second = spawnMm(["run"], { ...env, MM_ENGINE_SESSION: "second" });
    const code = await Promise.race([
      second.exited,
      new Promise((r) => setTimeout(() => r("still running after 15 s"), 15_000)),
    ]);
    expect(code).toBe(2);
    const line = second.stderr();
    expect(line).toContain("config error: journal.path:");
    expect(line).toContain(WALLET);
    expect(line).toContain(`pid ${child.child.pid}`);
    expect(line).toContain(hostname());
    expect(line).toContain("session live");
    // Nothing of the live run's was cancelled, and it is still quoting.
    await new Promise((r) => setTimeout(r, 300));
    expect(openIds(m)).toEqual(live);
    expect(child.child.exitCode).toBeNull();

    // The reader is not blocked by the live run's lock.
    const report = io({ MM_LOG_LEVEL: "silent" });
    expect(await main(["report", "--journal", journal.path], report)).toBe(0);

    // A crash does not hold the account: the next start restores the killed run and takes over.
    await reap(child);
    child = undefined;
    const { logger } = memoryLogger();
    slots.daemon = await startDaemon(daemonConfig(m, [ARG.slug]), { logger, journal });
    expect(slots.daemon.journal?.restore.runs).toBe(1);
    await waitFor(
      () => openIds(m).every((id) => !live.includes(id)),
      5_000,
      "the killed run's orders cancelled",
    );
  }, 60_000);

  it("in one process: the second startDaemon is a ConfigError and the live one keeps its orders; another account on the same file starts", async () => {
    slots.mock = await startMock();
    const m = slots.mock;
    seedMarket(m, ARG, "0.30", "0.70");
    const journal = journalIn(slots, "mm-journal-second-");
    const { logger } = memoryLogger();
    slots.daemon = await startDaemon(daemonConfig(m, [ARG.slug]), { logger, journal });
    await settledQuotes(m, YES, 4);
    const live = openIds(m);

    const err = await startDaemon(daemonConfig(m, [ARG.slug]), {
      logger: memoryLogger().logger,
      journal,
    }).then(
      async (d) => {
        await d.stop("test over");
        return new Error("the second daemon started");
      },
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ConfigError);
    const lines = (err as ConfigError).lines().join("\n");
    expect(lines).toContain("journal.path");
    expect(lines).toContain(WALLET);
    expect(lines).toContain(`pid ${process.pid}`);
    expect(lines).toContain(`run ${slots.daemon.journal?.run}`);
    expect(openIds(m)).toEqual(live);

    // The same wallet on another exchange is another account: it shares the journal file.
    otherMock = await startMock();
    seedMarket(otherMock, ARG, "0.30", "0.70");
    const other = await startDaemon(daemonConfig(otherMock, [ARG.slug]), { logger, journal });
    try {
      await settledQuotes(otherMock, YES, 4);
    } finally {
      await other.stop("test over");
    }
    expect(openIds(m)).toEqual(live);
  }, 30_000);
});
