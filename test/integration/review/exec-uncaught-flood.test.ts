import { describe, expect, it } from "vitest";
import { runUntilStopped, type Stoppable } from "../../../src/app/lifecycle.js";
import type { DaemonOutcome } from "../../../src/app/outcome.js";
import { manualRequests } from "../daemon/support.js";

// Review 17 (r2exec), 91f671c: an uncaught error starts the bounded stop; one that recurs while
// stopping "only adds its line" — in fact two stderr lines, the first with the whole stack, for every
// recurrence. A throw in a per-frame handler (books keep arriving while the stop cancels) recurs
// hundreds of times a second for up to shutdown.timeoutMs: thousands of stack traces on stderr
// (scrubbed, written synchronously) in the window the stop needs. Pinned: the same failure recurring
// while stopping is named a bounded number of times.
describe("runUntilStopped: a failure that recurs while stopping", () => {
  it("does not write a stack trace per recurrence", async () => {
    const r = manualRequests();
    let resolveDone: (o: DaemonOutcome) => void = () => undefined;
    const done = new Promise<DaemonOutcome>((res) => {
      resolveDone = res;
    });
    const daemon: Stoppable = {
      done,
      stop(reason) {
        setTimeout(() => resolveDone({ exitCode: 0, reason }), 50);
        return done;
      },
    };
    const lines: string[] = [];
    const run = runUntilStopped(async () => daemon, {
      shutdownTimeoutMs: 1_000,
      requests: r.requests,
      notify: (l) => lines.push(l),
    });
    await new Promise((res) => setTimeout(res, 10));
    for (let i = 0; i < 1_000; i++) r.fire("uncaughtException", new Error("frame handler bug"));
    expect((await run).exitCode).toBe(1);
    const stacks = lines.filter((l) => l.includes("frame handler bug"));
    expect(stacks.length).toBeLessThanOrEqual(5);
    expect(lines.length).toBeLessThanOrEqual(10);
  });
});
