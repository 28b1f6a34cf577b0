import { createMockExchange } from "../../src/mock/mock-exchange.js";
import { daemonEnv, market, SCENARIO, seedMarket } from "../integration/daemon/support.js";
import { closedPort } from "../support/http-test-server.js";
import { type childSlots, msg, spawnMm } from "./support.js";

/**
 * `mm run` on one seeded market whose WebSocket URL is a closed port, so its start stays in the
 * gateways' connect loop (a slow start), awaited until its first "reconnecting" line; `env` adds
 * settings. The child and the mock are left in `slots`.
 */
export async function runStuckInStart(
  slots: ReturnType<typeof childSlots>,
  env: Record<string, string>,
): Promise<void> {
  slots.mock = await createMockExchange({ scenario: SCENARIO, flow: false });
  const arg = market("arg-vs-fra-final-arg-win");
  seedMarket(slots.mock, arg, "0.50", "0.60");
  const port = await closedPort();
  slots.mm = spawnMm(
    ["run"],
    daemonEnv(slots.mock, [arg.slug], { MM_EXCHANGE_WS_URL: `ws://127.0.0.1:${port}`, ...env }),
  );
  await slots.mm.waitFor(msg("gateway: connection lost; reconnecting"), 15_000, "the start to be under way");
}
