import { expect } from "vitest";
import type { DaemonOutcome } from "../../../src/app/outcome.js";
import type { Scenario } from "../../../src/mock/scenario/types.js";
import { type MmChild, reap } from "../../e2e/support.js";
import { KEY_ID, SCENARIO, waitFor } from "../../integration/daemon/support.js";
import { lastLine, runChild } from "../child.js";
import { runDaemon, startRig, startWorld, WAIT_MS, type World } from "../harness.js";
import { checkExit, expectInvariants, type Verdict } from "../invariants.js";
import type { FaultScenario } from "../scenario.js";

/**
 * A second write key of the paper partner: the replacement an operator is issued after a key is
 * revoked (the spec's rotation: issue a replacement, switch, revoke the old one).
 */
const REPLACEMENT_KEY = `mm_test_f00dfeedcafe0001_${Buffer.alloc(32, 7).toString("base64url")}`;
const WITH_REPLACEMENT: Scenario = {
  ...SCENARIO,
  apiKeys: [
    ...SCENARIO.apiKeys,
    { ...(SCENARIO.apiKeys[0] as Scenario["apiKeys"][number]), key: REPLACEMENT_KEY },
  ],
};
const PARTNER = SCENARIO.apiKeys[0]?.partnerId as string;

/**
 * "Having cancelled what it could": between the fault and its exit the bot sent a wallet-wide
 * cancel-all (the mock refuses it with 401, as it refuses everything the dead key sends).
 */
function cancelAttempt(world: World, from: number, to: number): Verdict {
  const tries = world.tap.requests.filter(
    (r) =>
      r.startedAt >= from && r.startedAt <= to && r.method === "POST" && r.path === "/api/orders/cancel-all",
  );
  const statuses = [...new Set(tries.map((r) => r.status ?? "none"))].join("/");
  const ok = tries.length > 0;
  return {
    name: "cancel tried",
    ok,
    summary: ok ? `${tries.length} cancel-all, answered ${statuses}` : "none",
    problems: ok ? [] : ["the bot stopped without trying to cancel its quotes"],
  };
}

/**
 * After a fatal stop the orders the dead key could not cancel are still on the exchange. The
 * operator's recovery is a restart with working credentials: its start-up cancels every one of them,
 * then it quotes; the invariants are checked on that run.
 */
async function recoverWith(world: World, env: Record<string, string>, left: number): Promise<Verdict[]> {
  const rig = await runDaemon(world, { env });
  try {
    const started = rig.events.find((e) => e.type === "started");
    expect(started?.type === "started" && started.cancelledAtStart).toBe(left);
    await rig.reconciles(2);
    return rig.verdicts();
  } finally {
    await rig.stop();
  }
}

export const keyRevoked: FaultScenario = {
  name: "key revoked (4401), mm run",
  fault: "revoke-key {keyId} while quoting",
  timeoutMs: 30_000,
  async run(row) {
    const world = await startWorld({ scenario: WITH_REPLACEMENT });
    const children: MmChild[] = [];
    try {
      const { mm } = await runChild(world, "revoked", children);
      await waitFor(() => world.quoting(), WAIT_MS, "quotes");
      const t0 = Date.now();
      await world.admin("revoke-key", { keyId: KEY_ID });
      const code = await Promise.race([mm.exited, new Promise((r) => setTimeout(() => r("running"), 8_000))]);
      const exitAt = Date.now();
      row.recoveryMs = exitAt - t0;
      const outcome: DaemonOutcome | undefined =
        typeof code === "number" ? { exitCode: code, reason: lastLine(mm) } : undefined;
      // Every request with the revoked key is refused: the quotes stay until a working key cancels them.
      const left = world.venue.open().length;
      const recovery = await recoverWith(world, { MM_API_KEY: REPLACEMENT_KEY }, left);
      expectInvariants(
        row,
        [
          checkExit(outcome, 3, "refused the API key for good (api_key_revoked)"),
          cancelAttempt(world, t0, exitAt),
          ...recovery,
        ],
        `${left} left by the dead key, cancelled by the restart`,
      );
      expect(world.venue.open()).toEqual([]);
    } finally {
      for (const c of children) await reap(c);
      await world.close();
    }
  },
};

export const partnerSuspended: FaultScenario = {
  name: "partner suspended",
  fault: "suspend-partner, later reactivate-partner",
  timeoutMs: 30_000,
  async run(row) {
    const rig = await startRig();
    try {
      const t0 = Date.now();
      await rig.admin("suspend-partner", { partnerId: PARTNER });
      const outcome = await Promise.race([
        rig.daemon.done,
        new Promise<undefined>((r) => setTimeout(() => r(undefined), 8_000)),
      ]);
      const exitAt = Date.now();
      row.recoveryMs = exitAt - t0;
      expect(rig.logs.text()).toContain("for good (api_key_suspended)");
      const left = rig.venue.open().length;
      await rig.admin("reactivate-partner", { partnerId: PARTNER });
      const recovery = await recoverWith(rig, {}, left);
      expectInvariants(
        row,
        [checkExit(outcome, 3, "api_key_suspended"), cancelAttempt(rig, t0, exitAt), ...recovery],
        `${left} left by the suspended key, cancelled by the restart`,
      );
      expect(rig.venue.open()).toEqual([]);
    } finally {
      await rig.close();
    }
  },
};
