import { describe, expect, it } from "vitest";
import { holdEarlySignals, releaseEarlySignals } from "../../../src/app/early-signals.js";
import {
  processFailures,
  processSignals,
  runUntilStopped,
  type Stoppable,
} from "../../../src/app/lifecycle.js";
import type { DaemonOutcome } from "../../../src/app/outcome.js";
import { StartStoppedError } from "../../../src/app/start-errors.js";
import { manualRequests } from "./support.js";

/** A daemon whose stop takes `stopMs` (Infinity: never ends), recording the stop reasons. */
function fakeDaemon(stopMs: number): Stoppable & { reasons: string[] } {
  let resolveDone: (o: DaemonOutcome) => void = () => undefined;
  const done = new Promise<DaemonOutcome>((r) => {
    resolveDone = r;
  });
  const reasons: string[] = [];
  return {
    reasons,
    done,
    stop(reason) {
      reasons.push(reason);
      if (Number.isFinite(stopMs)) setTimeout(() => resolveDone({ exitCode: 0, reason }), stopMs);
      return done;
    },
  };
}

describe("runUntilStopped", () => {
  it("stops the daemon on a request and returns its outcome", async () => {
    const r = manualRequests();
    const daemon = fakeDaemon(20);
    const run = runUntilStopped(async () => daemon, {
      shutdownTimeoutMs: 1_000,
      requests: r.requests,
      notify: () => {},
    });
    await new Promise((res) => setTimeout(res, 10));
    r.fire("SIGTERM");
    expect(await run).toEqual({ exitCode: 0, reason: "SIGTERM" });
    expect(daemon.reasons).toEqual(["SIGTERM"]);
    expect(r.listening()).toBe(false);
  });

  it("bounds a stop that hangs: exit 1 after shutdownTimeoutMs, and forceExit(1)", async () => {
    const r = manualRequests();
    const forced: number[] = [];
    const lines: string[] = [];
    const run = runUntilStopped(async () => fakeDaemon(Number.POSITIVE_INFINITY), {
      shutdownTimeoutMs: 150,
      requests: r.requests,
      forceExit: (code) => forced.push(code),
      notify: (l) => lines.push(l),
    });
    await new Promise((res) => setTimeout(res, 10));
    const t0 = performance.now();
    r.fire("SIGINT");
    const outcome = await run;
    const took = performance.now() - t0;
    expect(outcome).toEqual({ exitCode: 1, reason: "the stop overran 150 ms" });
    expect(took).toBeGreaterThanOrEqual(140);
    expect(took).toBeLessThan(1_000);
    expect(forced).toEqual([1]);
    expect(lines.at(-1)).toContain("exiting with code 1");
  });

  it("a second request while stopping ends at once with exit 1", async () => {
    const r = manualRequests();
    const forced: number[] = [];
    const run = runUntilStopped(async () => fakeDaemon(Number.POSITIVE_INFINITY), {
      shutdownTimeoutMs: 10_000,
      requests: r.requests,
      forceExit: (code) => forced.push(code),
      notify: () => {},
    });
    await new Promise((res) => setTimeout(res, 10));
    r.fire("SIGINT");
    r.fire("SIGINT");
    expect(await run).toEqual({ exitCode: 1, reason: "second SIGINT" });
    expect(forced).toEqual([1]);
  });

  it("a request during start-up stops the daemon as soon as it is up", async () => {
    const r = manualRequests();
    const daemon = fakeDaemon(5);
    const run = runUntilStopped(
      async () => {
        r.fire("SIGTERM");
        await new Promise((res) => setTimeout(res, 30));
        return daemon;
      },
      { shutdownTimeoutMs: 1_000, requests: r.requests, notify: () => {} },
    );
    expect(await run).toEqual({ exitCode: 0, reason: "SIGTERM" });
    expect(daemon.reasons).toEqual(["SIGTERM"]);
  });

  it("a stop the daemon begins on its own (fatal close) is bounded too", async () => {
    const r = manualRequests();
    const forced: number[] = [];
    const run = runUntilStopped(
      async (onStopping) => {
        const d = fakeDaemon(Number.POSITIVE_INFINITY);
        setTimeout(() => onStopping("api_key_revoked"), 10);
        return d;
      },
      { shutdownTimeoutMs: 100, requests: r.requests, forceExit: (c) => forced.push(c), notify: () => {} },
    );
    expect(await run).toEqual({ exitCode: 1, reason: "the stop overran 100 ms" });
    expect(forced).toEqual([1]);
  });

  it("a hangup while stopping is no second request: the stop goes on to exit 0", async () => {
    const r = manualRequests();
    const forced: number[] = [];
    const lines: string[] = [];
    const daemon = fakeDaemon(50);
    const run = runUntilStopped(async () => daemon, {
      shutdownTimeoutMs: 1_000,
      requests: r.requests,
      forceExit: (code) => forced.push(code),
      notify: (l) => lines.push(l),
    });
    await new Promise((res) => setTimeout(res, 10));
    // A closing terminal: the shell relays one SIGHUP, the kernel sends another as the shell exits.
    r.fire("SIGHUP");
    r.fire("SIGHUP");
    expect(await run).toEqual({ exitCode: 0, reason: "SIGHUP" });
    expect(daemon.reasons).toEqual(["SIGHUP"]);
    expect(forced).toEqual([]);
    expect(lines).toEqual([
      "SIGHUP: cancelling every quote, then exiting (at most 1000 ms)",
      "SIGHUP while stopping: the stop goes on (a hangup never abandons the quotes)",
    ]);
  });

  it("a hangup during a stop asked for by SIGINT does not cut it short either", async () => {
    const r = manualRequests();
    const forced: number[] = [];
    const run = runUntilStopped(async () => fakeDaemon(50), {
      shutdownTimeoutMs: 1_000,
      requests: r.requests,
      forceExit: (code) => forced.push(code),
      notify: () => {},
    });
    await new Promise((res) => setTimeout(res, 10));
    r.fire("SIGINT");
    r.fire("SIGHUP");
    expect(await run).toEqual({ exitCode: 0, reason: "SIGINT" });
    expect(forced).toEqual([]);
  });

  it("a SIGINT after a hangup is still the operator's second request: exit 1 at once", async () => {
    const r = manualRequests();
    const forced: number[] = [];
    const run = runUntilStopped(async () => fakeDaemon(Number.POSITIVE_INFINITY), {
      shutdownTimeoutMs: 10_000,
      requests: r.requests,
      forceExit: (code) => forced.push(code),
      notify: () => {},
    });
    await new Promise((res) => setTimeout(res, 10));
    r.fire("SIGHUP");
    r.fire("SIGINT");
    expect(await run).toEqual({ exitCode: 1, reason: "second SIGINT" });
    expect(forced).toEqual([1]);
  });
});

describe("processSignals", () => {
  it("turns SIGINT, SIGTERM and SIGHUP of this process into stop requests, until removed", async () => {
    const got: string[] = [];
    const before = (["SIGINT", "SIGTERM", "SIGHUP"] as const).map((sig) => process.listenerCount(sig));
    const off = processSignals((reason) => got.push(reason));
    try {
      // Real signals to this test process: the listeners keep it alive (a removed one would not).
      for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
        process.kill(process.pid, sig);
        const until = Date.now() + 2_000;
        while (!got.includes(sig) && Date.now() < until) await new Promise((res) => setTimeout(res, 5));
      }
    } finally {
      off();
    }
    expect(got).toEqual(["SIGINT", "SIGTERM", "SIGHUP"]);
    expect((["SIGINT", "SIGTERM", "SIGHUP"] as const).map((sig) => process.listenerCount(sig))).toEqual(
      before,
    );
  });
});

describe("processSignals after holdEarlySignals", () => {
  it("requests the stops held since the process began, at once, and then the live ones", async () => {
    const sigs = ["SIGINT", "SIGTERM", "SIGHUP", "SIGUSR2"] as const;
    const before = sigs.map((sig) => process.listenerCount(sig));
    const got: string[] = [];
    let off = () => {};
    try {
      holdEarlySignals(["version"]); // not a daemon's command: nothing held
      expect(sigs.map((sig) => process.listenerCount(sig))).toEqual(before);
      holdEarlySignals(["run", "--config", "live.json"]);
      // Real signals, while nothing but the holder listens: kept, not lost (nor fatal).
      process.kill(process.pid, "SIGTERM");
      process.kill(process.pid, "SIGUSR2");
      await new Promise((r) => setTimeout(r, 100));
      off = processSignals((reason) => got.push(reason));
      expect(got).toEqual(["SIGTERM"]);
      process.kill(process.pid, "SIGINT");
      const until = Date.now() + 2_000;
      while (got.length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
      expect(got).toEqual(["SIGTERM", "SIGINT"]);
    } finally {
      off();
      releaseEarlySignals();
    }
    expect(sigs.map((sig) => process.listenerCount(sig))).toEqual(before);
  });
});

describe("runUntilStopped: a failure (an uncaught error)", () => {
  it("stops the daemon like a request, names the error, and ends with exit code 1", async () => {
    const r = manualRequests();
    const daemon = fakeDaemon(20);
    const lines: string[] = [];
    const run = runUntilStopped(async () => daemon, {
      shutdownTimeoutMs: 1_000,
      requests: r.requests,
      notify: (l) => lines.push(l),
    });
    await new Promise((res) => setTimeout(res, 10));
    r.fire("uncaughtException", new Error("boom"));
    // A throw that recurs while stopping neither counts as a second request nor cuts the stop.
    r.fire("uncaughtException", new Error("boom again"));
    expect(await run).toEqual({ exitCode: 1, reason: "uncaughtException" });
    expect(daemon.reasons).toEqual(["uncaughtException"]);
    expect(lines[0]).toMatch(/^uncaughtException: Error: boom \(code unexpected_error\)\n {4}at /);
    expect(lines).toContain(
      "uncaughtException: cancelling every quote, then exiting with code 1 (at most 1000 ms)",
    );
    expect(lines).toContain("uncaughtException while stopping: the stop goes on, then exits with code 1");
  });

  it("during the start: the start is abandoned, exit 1", async () => {
    const r = manualRequests();
    const run = runUntilStopped(
      (_onStopping, stopRequested) =>
        new Promise<Stoppable>((_, reject) =>
          stopRequested.addEventListener("abort", () =>
            reject(new StartStoppedError(String(stopRequested.reason))),
          ),
        ),
      { shutdownTimeoutMs: 1_000, requests: r.requests, notify: () => {} },
    );
    r.fire("unhandledRejection", "not an Error");
    expect(await run).toEqual({ exitCode: 1, reason: "unhandledRejection" });
  });
});

describe("processFailures", () => {
  it("turns this process's unhandled rejections into failed requests, until removed", async () => {
    const got: [string, unknown][] = [];
    const before = process.listenerCount("unhandledRejection");
    const off = processFailures((reason, failure) => got.push([reason, failure]));
    try {
      void Promise.reject(new Error("nobody waits"));
      void Promise.reject();
      await new Promise((res) => setTimeout(res, 20));
    } finally {
      off();
    }
    expect(got.map(([reason]) => reason)).toEqual(["unhandledRejection", "unhandledRejection"]);
    expect(got[0]?.[1]).toMatchObject({ message: "nobody waits" });
    expect(got[1]?.[1]).toBe("a promise rejected without a reason");
    expect(process.listenerCount("unhandledRejection")).toBe(before);
  });
});
