import { describe, expect, it } from "vitest";
import { runUntilStopped, type Stoppable, type StopRequests } from "../../../src/app/lifecycle.js";
import { DAEMON_EXIT, type DaemonOutcome } from "../../../src/app/outcome.js";
import { superviseDaemon } from "../../../src/app/supervise.js";
import { MmError } from "../../../src/core/errors.js";

/*
 * README, Exit codes: "Every error line on stderr ends with the error's code, for a grep or a log
 * shipper to key on … for an error that has none (a bug), `unexpected_error`". A failure while
 * `mm run` / `mm paper` is running (an uncaught exception or unhandled rejection: the lifecycle
 * cancels every quote and exits 1) is the line a log shipper most needs: it was written with no
 * `(code …)` (review22-rcli), and so were the stop-overran and second-signal lines.
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

/** A daemon whose stop never ends, and a request source the test fires by hand. */
function hungStop(): { fire: (reason: string) => void; requests: StopRequests; daemon: Stoppable } {
  let onStop: (reason: string) => void = () => undefined;
  const requests: StopRequests = (cb) => {
    onStop = cb;
    return () => undefined;
  };
  const daemon: Stoppable = { stop: () => new Promise(() => undefined), done: new Promise(() => undefined) };
  return { fire: (reason) => onStop(reason), requests, daemon };
}

describe("the lines of a stop ended early name a code", () => {
  it("a stop that overran its bound: stop_overran", async () => {
    const h = hungStop();
    const lines: string[] = [];
    const run = runUntilStopped(async () => h.daemon, {
      shutdownTimeoutMs: 50,
      requests: h.requests,
      notify: (l) => lines.push(l),
    });
    await new Promise((r) => setTimeout(r, 5));
    h.fire("SIGTERM");
    expect((await run).exitCode).toBe(DAEMON_EXIT.failed);
    expect(lines.at(-1)).toBe(
      "the stop overran 50 ms: exiting with code 1; some quotes may still be open (code stop_overran)",
    );
  });

  it("a second signal while stopping: stop_abandoned", async () => {
    const h = hungStop();
    const lines: string[] = [];
    const run = runUntilStopped(async () => h.daemon, {
      shutdownTimeoutMs: 10_000,
      requests: h.requests,
      notify: (l) => lines.push(l),
    });
    await new Promise((r) => setTimeout(r, 5));
    h.fire("SIGINT");
    h.fire("SIGINT");
    expect((await run).exitCode).toBe(DAEMON_EXIT.failed);
    expect(lines.at(-1)).toBe(
      "second SIGINT while stopping: exiting now with code 1; some quotes may still be open (code stop_abandoned)",
    );
  });
});
