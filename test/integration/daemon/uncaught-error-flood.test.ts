import { describe, expect, it } from "vitest";
import { runUntilStopped, type Stoppable } from "../../../src/app/lifecycle.js";
import type { DaemonOutcome } from "../../../src/app/outcome.js";
import { manualRequests } from "./support.js";

// An uncaught error starts the bounded stop. One that recurs while stopping (a throw in a per-frame
// handler: books keep arriving while the stop cancels) can recur hundreds of times a second for up
// to shutdown.timeoutMs; a stack trace per recurrence would flood stderr (scrubbed, written
// synchronously) in the window the stop needs. The first failure is named in full, each new message
// briefly (up to NAMED_FAILURES), and the rest counted, the count written when the stop ends.
/** A daemon whose stop takes 50 ms, run until stopped 10 ms in: its request source and notes. */
async function started() {
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
  return { r, lines, run };
}

describe("runUntilStopped: a failure that recurs while stopping", () => {
  it("does not write a stack trace per recurrence", async () => {
    const { r, lines, run } = await started();
    for (let i = 0; i < 1_000; i++) r.fire("uncaughtException", new Error("frame handler bug"));
    expect((await run).exitCode).toBe(1);
    const stacks = lines.filter((l) => l.includes("frame handler bug"));
    expect(stacks.length).toBeLessThanOrEqual(5);
    expect(lines.length).toBeLessThanOrEqual(10);
    expect(lines.filter((l) => l.includes("\n    at ")).length).toBe(1);
    expect(lines.at(-1)).toBe(
      "999 more uncaught errors (1 distinct) while stopping were counted, not printed",
    );
  });

  it("names each new message briefly, up to NAMED_FAILURES, and counts the rest", async () => {
    const { r, lines, run } = await started();
    r.fire("SIGTERM");
    const errors = Array.from({ length: 20 }, (_, i) => new Error(`order ${i} gone`));
    for (let i = 0; i < 100; i++) r.fire("unhandledRejection", errors[i % 20]);
    expect((await run).exitCode).toBe(1);
    const named = lines.filter((l) => l.startsWith("unhandledRejection: Error: order "));
    expect(named.map((l) => l.split("\n")[0])).toEqual(
      [0, 1, 2, 3, 4].map((i) => `unhandledRejection: Error: order ${i} gone (code unexpected_error)`),
    );
    // The first in full; the others with their top frames only.
    expect(named[0]).toBe(
      `unhandledRejection: ${errors[0]?.stack}`.replace("\n", " (code unexpected_error)\n"),
    );
    for (const l of named.slice(1)) {
      expect(l.split("\n").length).toBeLessThanOrEqual(3);
      expect(l.split("\n")[1]).toMatch(/^\s+at /);
    }
    expect(lines.filter((l) => l.includes("the stop goes on"))).toHaveLength(1);
    expect(lines.at(-1)).toBe(
      "95 more uncaught errors (20 distinct) while stopping were counted, not printed",
    );
  });
});
