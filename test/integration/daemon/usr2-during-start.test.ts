import { describe, expect, it } from "vitest";
import { createMockExchange } from "../../../src/mock/mock-exchange.js";
import { childSlots, expectPromptStop, msg, spawnMm } from "../../e2e/support.js";
import { closedPort } from "../../support/http-test-server.js";
import { daemonEnv, market, SCENARIO, seedMarket } from "./support.js";

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
    slots.mock = await createMockExchange({ scenario: SCENARIO, flow: false });
    const arg = market("arg-vs-fra-final-arg-win");
    seedMarket(slots.mock, arg, "0.50", "0.60");
    const port = await closedPort();
    // The WebSocket is unreachable: the start stays in the gateways' connect loop (a slow start).
    slots.mm = spawnMm(
      ["run"],
      daemonEnv(slots.mock, [arg.slug], {
        MM_EXCHANGE_WS_URL: `ws://127.0.0.1:${port}`,
        MM_SHUTDOWN_TIMEOUT_MS: "5000",
      }),
    );
    await slots.mm.waitFor(
      msg("gateway: connection lost; reconnecting"),
      15_000,
      "the start to be under way",
    );
    slots.mm.child.kill("SIGUSR2");
    // Heard, and said so: the re-arm is applied once the daemon has started (not silently dropped).
    await slots.mm.waitFor(
      msg("SIGUSR2 during start-up: the kill switch is re-armed once the daemon has started"),
      3_000,
      "the early re-arm to be acknowledged",
    );
    await new Promise((r) => setTimeout(r, 500));
    // Was: the child had ended by signal SIGUSR2 (exited resolves "SIGUSR2").
    expect(slots.mm.child.signalCode).toBeNull();
    expect(slots.mm.child.exitCode).toBeNull();
    await expectPromptStop(slots.mm, 3_000);
  }, 30_000);
});
