import { describe, expect, it } from "vitest";
import type { DaemonRun } from "../../../src/app/daemon-run.js";
import { DAEMON_EXIT, RefusedStartError, refusedStart } from "../../../src/app/outcome.js";
import { superviseDaemon } from "../../../src/app/supervise.js";
import { ExchangeError } from "../../../src/exchange/exchange-error.js";
import { stoppedRun } from "./stopped-run.js";

/*
 * A rotated key without orders:write: the exchange refuses mm's cancels (403 api_key_scope_missing)
 * and the run stops with exit 3, as it must. But the orders an earlier run left (or this run's)
 * still rest on the exchange, and the exit line said "quotes cancelled where possible". It now says
 * how many mm knows of — the open-orders read after the cancels, or, when the key cannot read
 * them, the run's own belief and the journal's orders of earlier runs — and that they stay until
 * cancelled with a key holding orders:write.
 */

const cancelRefused = new ExchangeError({
  code: "api_key_scope_missing",
  message: "scope orders:write required",
  outcome: "rejected",
  endpoint: "POST /api/orders/cancel-all",
  httpStatus: 403,
  details: { requiredScope: "orders:write", have: ["orders:read"] },
});

const REASON =
  "api_key_scope_missing: the API key lacks orders:write, which POST /api/orders/cancel-all needs";

/** superviseDaemon's stderr for a daemon that ends as `r` does. */
async function exitLine(r: DaemonRun): Promise<{ code: number; stderr: string }> {
  const lines: string[] = [];
  const code = await superviseDaemon(
    "run",
    async () => ({ stop: (reason) => r.stop(reason), done: r.done }),
    5_000,
    (t) => lines.push(t),
    { requests: () => () => undefined },
  );
  return { code, stderr: lines.join("") };
}

describe("exit 3 on a key without orders:write: what still rests on the exchange", () => {
  it("names the count the open-orders read listed after the cancels", async () => {
    const r = stoppedRun({ openOrders: 2 }, 5);
    r.unauthorized(cancelRefused);
    expect(await r.done).toEqual({
      exitCode: DAEMON_EXIT.fatal,
      reason: REASON,
      resting: { open: 2, believed: false, journaled: 0 },
    });
    const { code, stderr } = await exitLine(r);
    expect(code).toBe(DAEMON_EXIT.fatal);
    // Was: "…; quotes cancelled where possible; exit 3".
    expect(stderr).toContain(
      "2 order(s) of the wallet still rest on the exchange (its open-orders list, read after the cancels): they stay there until cancelled with a key holding orders:write",
    );
    expect(stderr).not.toContain("quotes cancelled where possible");
  });

  it("without a read, names the run's own and the journal's orders of earlier runs", async () => {
    const r = stoppedRun({ openOrders: 1, believed: true }, 3);
    r.unauthorized(cancelRefused);
    const { stderr } = await exitLine(r);
    expect(stderr).toContain(
      "1 order(s) this run believes open and 3 an earlier run left (by the journal) may still rest on the exchange (the key could not read the wallet's open orders): they stay there until cancelled with a key holding orders:write",
    );
  });

  it("leaves out of the journal's count the earlier runs' orders the engine holds (adopted: in its own)", async () => {
    const r = stoppedRun({ openOrders: 2, believed: true, held: new Set(["o0", "o1", "x9"]) }, 3);
    r.unauthorized(cancelRefused);
    expect((await r.done).resting).toEqual({ open: 2, believed: true, journaled: 1 });
  });

  it("says nothing of resting orders when mm knows of none", async () => {
    const r = stoppedRun({ openOrders: 0, believed: true }, 0);
    r.unauthorized(cancelRefused);
    expect(await r.done).toEqual({ exitCode: DAEMON_EXIT.fatal, reason: REASON });
    expect((await exitLine(r)).stderr).toContain("quotes cancelled where possible; exit 3");
  });

  it("a start the refusal ended says it too, still exit 3 naming the scope", async () => {
    const resting = { open: 4, believed: false, journaled: 0 };
    const err = refusedStart(cancelRefused, resting);
    expect(err).toBeInstanceOf(RefusedStartError);
    expect(refusedStart(cancelRefused, undefined)).toBe(cancelRefused);
    const lines: string[] = [];
    const code = await superviseDaemon(
      "run",
      () => Promise.reject(err),
      5_000,
      (t) => lines.push(t),
      { requests: () => () => undefined },
    );
    expect(code).toBe(DAEMON_EXIT.fatal);
    expect(lines.join("")).toContain(
      `the exchange refused the API key (${REASON}) at start-up; nothing was quoted; 4 order(s) of the wallet still rest on the exchange`,
    );
  });
});
