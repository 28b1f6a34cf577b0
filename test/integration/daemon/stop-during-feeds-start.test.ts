import { createServer, type Server, type Socket, connect as tcpConnect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { Daemon } from "../../../src/app/daemon.js";
import { startDaemon } from "../../../src/app/daemon.js";
import type { JournalSettings } from "../../../src/app/journal-settings.js";
import { runUntilStopped } from "../../../src/app/lifecycle.js";
import type { DaemonOutcome } from "../../../src/app/outcome.js";
import type { EngineEvent } from "../../../src/engine/engine-events.js";
import type { MockExchange } from "../../../src/mock/mock-exchange.js";
import type { CollectingStream } from "../../support/collecting-stream.js";
import { closedPort } from "../../support/http-test-server.js";
import {
  daemonConfig,
  journalRuns,
  logged,
  manualRequests,
  market,
  memoryLogger,
  seedMarket,
  startMock,
  tempJournals,
  waitFor,
} from "./support.js";

const ARG = market("arg-vs-fra-final-arg-win");
/** Far above what a prompt stop takes: a stop that waits for it is the defect. */
const SHUTDOWN_MS = 8_000;
/** Shorter than the engine's whole start on a slow exchange, ample for the stop itself. */
const SLOW_SHUTDOWN_MS = 5_000;

let mock: MockExchange | undefined;
let proxy: SplitProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  await mock?.close();
  proxy = undefined;
  mock = undefined;
});
const newJournal = tempJournals("mm-stop-feeds-");

/** A loopback TCP front of the mock's WebSockets: /ws/user passes, /ws/market's handshake is never answered. */
interface SplitProxy {
  readonly wsUrl: string;
  /** The /ws/market sockets held unanswered, and whether each has been closed by the client. */
  readonly held: { socket: Socket; closed: boolean }[];
  close(): Promise<void>;
}

async function splitProxy(target: MockExchange): Promise<SplitProxy> {
  const port = Number(new URL(target.wsUrl).port);
  const held: { socket: Socket; closed: boolean }[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => undefined);
    socket.once("data", (chunk) => {
      if (chunk.toString("latin1").startsWith("GET /ws/market")) {
        const entry = { socket, closed: false };
        socket.on("close", () => {
          entry.closed = true;
        });
        held.push(entry);
        return;
      }
      const up = tcpConnect(port, "127.0.0.1");
      sockets.add(up);
      up.on("error", () => socket.destroy());
      socket.on("close", () => up.destroy());
      up.on("close", () => socket.destroy());
      up.write(chunk);
      socket.pipe(up).pipe(socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const listening = typeof address === "object" && address !== null ? address.port : 0;
  return {
    wsUrl: `ws://127.0.0.1:${listening}`,
    held,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

interface StopRun {
  readonly outcome: DaemonOutcome;
  /** From the request to the outcome. */
  readonly tookMs: number;
  readonly daemon: Daemon | undefined;
  readonly events: EngineEvent[];
  readonly journal: JournalSettings;
}

/**
 * Runs a daemon with its gateways at `wsUrl` under the lifecycle and fires SIGTERM once `ready`
 * resolves (it watches the log); the journal in a private folder.
 */
async function stopWhile(
  wsUrl: string,
  ready: (sink: CollectingStream) => Promise<unknown>,
  shutdownMs = SHUTDOWN_MS,
): Promise<StopRun> {
  const m = mock as MockExchange;
  const journal = newJournal();
  const config = daemonConfig(m, [ARG.slug], {
    MM_EXCHANGE_WS_URL: wsUrl,
    MM_SHUTDOWN_TIMEOUT_MS: String(shutdownMs),
  });
  const { logger, sink } = memoryLogger();
  const events: EngineEvent[] = [];
  const r = manualRequests();
  let daemon: Daemon | undefined;
  let firedAt = 0;
  const fired = ready(sink).then(() => {
    firedAt = performance.now();
    r.fire("SIGTERM");
  });
  const outcome = await runUntilStopped(
    (onStopping, stopRequested) =>
      startDaemon(config, {
        logger,
        onStopping,
        stopRequested,
        journal,
        listener: (e) => events.push(e),
      }).then((d) => {
        daemon = d;
        return d;
      }),
    { shutdownTimeoutMs: shutdownMs, requests: r.requests, notify: () => {} },
  );
  const tookMs = performance.now() - firedAt;
  await fired;
  return { outcome, tookMs, daemon, events, journal };
}

function expectEverythingClosed(d: Daemon | undefined): void {
  expect(d).toBeDefined();
  const states = [...(d?.feeds.user.linkStates() ?? []), ...(d?.feeds.market.client.linkStates() ?? [])];
  expect(states.length).toBeGreaterThan(0);
  // No link left connecting, open or waiting to reconnect (a pending reconnect timer).
  expect(states.every((s) => s === "closed")).toBe(true);
}

describe("daemon: a stop requested while the gateways are starting", () => {
  it("WebSockets unreachable (a wrong wsUrl): the gateway's reconnect loop ends, exit 0 at once, stop journaled", async () => {
    mock = await startMock();
    seedMarket(mock, ARG, "0.50", "0.60");
    const port = await closedPort();
    const run = await stopWhile(`ws://127.0.0.1:${port}`, (sink) =>
      logged(sink, "gateway: connection lost; reconnecting"),
    );
    // It used to wait for the whole shutdown budget, then exit 1 ("some quotes may still be open").
    expect(run.outcome.exitCode).toBe(0);
    expect(run.outcome.reason).toBe("SIGTERM");
    expect(run.tookMs).toBeLessThan(SHUTDOWN_MS / 2);
    expect(run.events.some((e) => e.type === "place_sent" || e.type === "started")).toBe(false);
    expectEverythingClosed(run.daemon);
    expect(journalRuns(run.journal)).toEqual([
      { stopped_at_ms: expect.any(BigInt), stop_reason: "SIGTERM", open_at_stop: 0n },
    ]);
  });

  it("/ws/user subscribed, /ws/market's handshake unanswered: the pending socket is closed, exit 0 at once", async () => {
    mock = await startMock();
    seedMarket(mock, ARG, "0.50", "0.60");
    const p = await splitProxy(mock);
    proxy = p;
    const run = await stopWhile(p.wsUrl, () => waitFor(() => p.held.length > 0, 15_000, "/ws/market"));
    expect(run.outcome.exitCode).toBe(0);
    expect(run.tookMs).toBeLessThan(SHUTDOWN_MS / 2);
    expect(run.events.some((e) => e.type === "place_sent" || e.type === "started")).toBe(false);
    expectEverythingClosed(run.daemon);
    await waitFor(() => p.held.every((h) => h.closed), 2_000, "the held /ws/market socket to be closed");
    expect(journalRuns(run.journal)).toEqual([
      { stopped_at_ms: expect.any(BigInt), stop_reason: "SIGTERM", open_at_stop: 0n },
    ]);
  });

  it("a request during the engine's start-up reads on a slow exchange: the stop is not held back by them", async () => {
    mock = await startMock();
    const m = mock;
    seedMarket(m, ARG, "0.50", "0.60");
    const run = await stopWhile(
      m.wsUrl,
      async (sink) => {
        // From the gateways' start on (the markets are read by then) every REST answer takes 3 s:
        // the engine's start-up reads (baseline, open orders) follow one another, longer than the budget.
        await logged(sink, "gateway: connected");
        m.admin.setHttpLatency(3_000);
        await logged(sink, "subscribed");
        await new Promise((r) => setTimeout(r, 100));
      },
      SLOW_SHUTDOWN_MS,
    );
    // It used to wait for the whole engine start first: "the stop overran", exit 1.
    expect(run.outcome.exitCode).toBe(0);
    expect(run.tookMs).toBeLessThan(SLOW_SHUTDOWN_MS);
    expect(run.events.some((e) => e.type === "place_sent" || e.type === "started")).toBe(false);
    expectEverythingClosed(run.daemon);
    expect(journalRuns(run.journal)).toEqual([
      { stopped_at_ms: expect.any(BigInt), stop_reason: "SIGTERM", open_at_stop: 0n },
    ]);
  });
});
