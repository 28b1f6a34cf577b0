import { afterEach, describe, expect, it } from "vitest";
import { startDaemon } from "../../../src/app/daemon.js";
import { runUntilStopped } from "../../../src/app/lifecycle.js";
import type { EngineEvent } from "../../../src/engine/engine-events.js";
import type { MockExchange } from "../../../src/mock/mock-exchange.js";
import { daemonConfig, manualRequests, market, memoryLogger, seedMarket, startMock } from "./support.js";

const ARG = market("arg-vs-fra-final-arg-win");

let mock: MockExchange | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

describe("daemon: a stop requested while the daemon is starting", () => {
  it("places no order after the request (the operator asked it to stop before it quoted)", async () => {
    mock = await startMock();
    seedMarket(mock, ARG, "0.50", "0.60");
    const placedOnMock: string[] = [];
    const { logger } = memoryLogger();
    const events: EngineEvent[] = [];
    const r = manualRequests();
    const config = daemonConfig(mock, [ARG.slug]);
    let requestedAt: number | undefined;
    const outcome = await runUntilStopped(
      async (onStopping, stopRequested) => {
        // SIGTERM (systemd restart, an operator's Ctrl-C) lands while mm is still starting.
        r.fire("SIGTERM");
        requestedAt = events.length;
        return startDaemon(config, {
          logger,
          onStopping,
          listener: (e) => events.push(e),
          stopRequested,
        });
      },
      { shutdownTimeoutMs: 5_000, requests: r.requests, notify: () => {} },
    );
    for (const e of events.slice(requestedAt ?? 0)) if (e.type === "place_sent") placedOnMock.push(e.type);
    expect(outcome.exitCode).toBe(0);
    // It used to quote the whole book first (4 or more placements), then cancel it: orders sent
    // after the stop request, exposed to fills and, after a slow start, to the forced exit of the
    // shutdown deadline armed at the request.
    expect(placedOnMock).toEqual([]);
  });

  it("a request during the engine's start-up reconcile stops it there: nothing placed, exit 0", async () => {
    mock = await startMock();
    seedMarket(mock, ARG, "0.50", "0.60");
    const { logger } = memoryLogger();
    const events: EngineEvent[] = [];
    const r = manualRequests();
    let requestedAt: number | undefined;
    const outcome = await runUntilStopped(
      (onStopping, stopRequested) =>
        startDaemon(daemonConfig(mock as MockExchange, [ARG.slug]), {
          logger,
          onStopping,
          stopRequested,
          listener: (e) => {
            events.push(e);
            if (e.type === "reconcile" && requestedAt === undefined) {
              requestedAt = events.length;
              r.fire("SIGTERM");
            }
          },
        }),
      { shutdownTimeoutMs: 5_000, requests: r.requests, notify: () => {} },
    );
    expect(requestedAt).toBeDefined();
    expect(events.filter((e) => e.type === "place_sent")).toEqual([]);
    expect(events.some((e) => e.type === "started")).toBe(false);
    expect(outcome.exitCode).toBe(0);
  });
});
