import { describe, expect, it } from "vitest";
import type { StopRequests } from "../../../src/app/lifecycle.js";
import { DAEMON_EXIT, type DaemonOutcome } from "../../../src/app/outcome.js";
import { superviseDaemon } from "../../../src/app/supervise.js";
import { MmError } from "../../../src/core/errors.js";

/*
 * Review of s22-cli (b86e1a6). README, Exit codes: "Every error line on stderr ends with the
 * error's code, for a grep or a log shipper to key on … for an error that has none (a bug),
 * `unexpected_error`." The failed-start lines got their code, but a failure while `mm run` /
 * `mm paper` is running (an uncaught exception or unhandled rejection: the lifecycle cancels every
 * quote and exits 1) is still written as `mm run: uncaughtException: TypeError: …` and
 * `mm run: stopped (uncaughtException); exit 1`, with no `(code …)` on any line. That is the
 * error an operator's log shipper most needs to key on (the bug that stopped an unattended
 * daemon), and the one README promises `unexpected_error` for.
 */

/** superviseDaemon's stderr for a daemon that runs until `failure` is heard as an uncaught error. */
async function failedRun(failure: unknown): Promise<{ code: number; lines: string[] }> {
  const out: string[] = [];
  let end: (o: DaemonOutcome) => void = () => undefined;
  const done = new Promise<DaemonOutcome>((r) => {
    end = r;
  });
  // The daemon is up; then the process hears an uncaught error (processFailures does this).
  const requests: StopRequests = (onStop) => {
    const t = setTimeout(() => onStop("uncaughtException", failure), 5);
    return () => clearTimeout(t);
  };
  const code = await superviseDaemon(
    "run",
    async () => ({
      stop: async (reason: string) => {
        const outcome = { exitCode: DAEMON_EXIT.ok, reason };
        end(outcome);
        return outcome;
      },
      done,
    }),
    5_000,
    (t) => out.push(t),
    { requests },
  );
  return { code, lines: out.join("").split("\n") };
}

describe("a failure while running names its code, as README says every error line does", () => {
  it("an uncaught error without a code (a bug): unexpected_error", async () => {
    const { code, lines } = await failedRun(new TypeError("cannot read properties of undefined"));
    expect(code).toBe(DAEMON_EXIT.failed);
    const named = lines.filter((l) => l.startsWith("mm run: ") && l.includes("uncaughtException"));
    expect(named.length, lines.join("\n")).toBeGreaterThan(0);
    expect(
      named.some((l) => l.includes("(code unexpected_error)")),
      lines.join("\n"),
    ).toBe(true);
  });

  it("an uncaught MmError: its own code", async () => {
    const { code, lines } = await failedRun(new MmError("book_crossed", "bid 0.52 above ask 0.51"));
    expect(code).toBe(DAEMON_EXIT.failed);
    const named = lines.filter((l) => l.startsWith("mm run: ") && l.includes("uncaughtException"));
    expect(
      named.some((l) => l.includes("(code book_crossed)")),
      lines.join("\n"),
    ).toBe(true);
  });
});
