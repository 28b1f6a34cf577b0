import { describe, it } from "vitest";
import { childSlots, expectPromptStop } from "./support.js";
import { runStuckInStart } from "./support-ws-down.js";

const slots = childSlots();

/**
 * `mm run` whose WebSocket gateways cannot be reached (a wrong exchange.wsUrl, or the exchange's
 * WebSocket down at start) reconnects for ever inside the feeds' start. SIGTERM there (the operator
 * fixing the URL, systemd or Docker restarting it) used to be ignored until the lifecycle's backstop:
 * exit 1 after the whole shutdown.timeoutMs with "the stop overran … some quotes may still be open",
 * although nothing was ever placed. README ("Running"): "A signal during start-up quotes nothing: the
 * engine is not started, or stops where its start has got to, and the daemon then stops."
 * In-process detail (journal, sockets closed): test/integration/daemon/stop-during-feeds-start.test.ts.
 */
describe("mm run: SIGTERM while the WebSocket gateways cannot connect at start", () => {
  it("stops promptly with exit 0 (nothing was placed), not after the whole shutdown budget with exit 1", async () => {
    await runStuckInStart(slots, { MM_SHUTDOWN_TIMEOUT_MS: "6000", MM_JOURNAL_ENABLED: "false" });
    const mm = slots.mm;
    if (mm === undefined) throw new Error("no child");
    // It was exit 1 after ~6,000 ms: "the stop overran 6000 ms: exiting with code 1; some quotes may still be open".
    await expectPromptStop(mm, 3_000);
  }, 40_000);
});
