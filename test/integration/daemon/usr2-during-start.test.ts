import { describe, expect, it } from "vitest";
import { childSlots, expectPromptStop, msg } from "../../e2e/support.js";
import { runStuckInStart } from "../../e2e/support-ws-down.js";

const slots = childSlots();

/**
 * README ("Running"): a tripped kill switch is re-armed with `kill -USR2 <pid>`, and a restarted run
 * whose last trip was never re-armed says so at warn *during its start* ("kill switch tripped in an
 * earlier run …: still tripped; re-arm with kill -USR2 <pid>"). The SIGUSR2 handler
 * (rearmOnSignal) was only installed once startDaemon has resolved — after the gateways connected and
 * the engine's start-up reconcile. Until then SIGUSR2 has Node's default action: the process is
 * terminated by the signal, with no stop, no cancel of adopted orders, no journaled end, no exit code.
 * An operator who follows the warn line while the start is slow (many markets, a slow exchange, the
 * WebSocket down) killed the daemon instead of re-arming it. The listener is now installed before
 * the start, and a re-arm asked for during it is applied once the daemon has started.
 */
describe("mm run: SIGUSR2 while the daemon is still starting", () => {
  it("does not kill the process; a later SIGTERM still stops it cleanly with exit 0", async () => {
    // The WebSocket is unreachable: the start stays in the gateways' connect loop (a slow start).
    await runStuckInStart(slots, { MM_SHUTDOWN_TIMEOUT_MS: "5000" });
    const mm = slots.mm;
    if (mm === undefined) throw new Error("no child");
    mm.child.kill("SIGUSR2");
    // Heard, and said so: the re-arm is applied once the daemon has started (not silently dropped).
    await mm.waitFor(
      msg("SIGUSR2 during start-up: the kill switch is re-armed once the daemon has started"),
      3_000,
      "the early re-arm to be acknowledged",
    );
    await new Promise((r) => setTimeout(r, 500));
    // Was: the child had ended by signal SIGUSR2 (exited resolves "SIGUSR2").
    expect(mm.child.signalCode).toBeNull();
    expect(mm.child.exitCode).toBeNull();
    await expectPromptStop(mm, 3_000);
  }, 30_000);
});
