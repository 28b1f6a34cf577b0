import { describe, expect, it } from "vitest";
import { startDaemon } from "../../../src/app/daemon.js";
import { DAEMON_EXIT } from "../../../src/app/outcome.js";
import { keyIdOf } from "../../../src/exchange/client.js";
import {
  API_KEY,
  daemonConfig,
  daemonSlots,
  market,
  memoryLogger,
  openOnMock,
  SCENARIO,
  seedMarket,
  startMock,
  waitFor,
} from "./support.js";

const ARG = market("arg-vs-fra-final-arg-win");

const slots = daemonSlots();

/*
 * The spec does not say that a revoked or expired key's WebSockets are closed. If they stay open,
 * only REST answers 401: the daemon must stop as it does at start-up (exit 3), not quote on with
 * every request refused.
 */
describe("daemon: the API key refused over REST while running", () => {
  it("stops with exit code 3 naming the code, its quotes cancelled as far as the exchange lets it", async () => {
    slots.mock = await startMock();
    seedMarket(slots.mock, ARG, "0.50", "0.60");
    const { logger, sink } = memoryLogger();
    const config = daemonConfig(slots.mock, [ARG.slug]);
    const d = await startDaemon(config, { logger });
    slots.daemon = d;
    const m = slots.mock;
    await waitFor(() => openOnMock(m, ARG.yesTokenId).length > 0, 2_000, "quotes");
    // Revoked at the REST door only: the sockets stay open (no 4401 close to stop the daemon).
    const keyId = keyIdOf(API_KEY) ?? "";
    const key = m.context.directory.keys.get(keyId);
    expect(key).toBeDefined();
    if (key !== undefined) key.revoked = true;
    // The next reconcile or requote reads or writes over REST and is answered 401.
    await d.engine.reconcileNow().catch(() => undefined);
    const outcome = await d.done;
    expect(outcome).toMatchObject({ exitCode: DAEMON_EXIT.fatal, reason: "api_key_revoked" });
    // The revoked key can neither cancel its quotes nor read them: the outcome counts them as believed.
    expect(outcome.resting).toEqual({ open: openOnMock(m).length, believed: true, journaled: 0 });
    expect(sink.text()).toContain("refused the API key (api_key_revoked");
  });
});

/*
 * A key without orders:write (mm mock's read-only key): every placement is answered 403
 * api_key_scope_missing. A scope is the key's (spec, Authentication step 5), so the first refusal
 * stops the run as a revoked key does, instead of the error-rate halt tripping for ever.
 */
describe("daemon: a placement refused for a scope the key lacks", () => {
  it("stops with exit code 3, the reason naming the scope and the request", async () => {
    slots.mock = await startMock();
    seedMarket(slots.mock, ARG, "0.50", "0.60");
    const { logger, sink } = memoryLogger();
    const readOnly = SCENARIO.apiKeys[1]?.key ?? "";
    const config = daemonConfig(slots.mock, [ARG.slug], { MM_API_KEY: readOnly });
    const d = await startDaemon(config, { logger });
    slots.daemon = d;
    const outcome = await d.done;
    expect(outcome).toEqual({
      exitCode: DAEMON_EXIT.fatal,
      reason: "api_key_scope_missing: the API key lacks orders:write, which POST /api/orders/place needs",
    });
    expect(sink.text()).toContain("the API key lacks orders:write, which POST /api/orders/place needs");
    expect(sink.text()).not.toContain("error rate");
  });
});
