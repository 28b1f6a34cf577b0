import { existsSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { startDaemon } from "../../../src/app/daemon.js";
import { runUntilStopped } from "../../../src/app/lifecycle.js";
import type { MockExchange } from "../../../src/mock/mock-exchange.js";
import {
  daemonConfig,
  manualRequests,
  market,
  memoryLogger,
  startMock,
  tempJournals,
  waitFor,
} from "./support.js";

const ARG = market("arg-vs-fra-final-arg-win");
/** Far above what a prompt stop takes: a stop that waits for the market reads is the defect. */
const SHUTDOWN_MS = 4_000;

/** A loopback REST API that takes every request and never answers (a hung or very slow exchange). */
interface SilentApi {
  readonly url: string;
  /** Paths requested, in order. */
  readonly requests: string[];
  /** Whether each request's socket has been closed by the client. */
  readonly sockets: { socket: Socket; closed: boolean }[];
  close(): Promise<void>;
}

async function silentApi(): Promise<SilentApi> {
  const requests: string[] = [];
  const sockets: { socket: Socket; closed: boolean }[] = [];
  const server: Server = createServer((req: IncomingMessage) => {
    requests.push(req.url ?? "");
    const entry = { socket: req.socket, closed: false };
    req.socket.on("close", () => {
      entry.closed = true;
    });
    sockets.push(entry);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    sockets,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let mock: MockExchange | undefined;
let api: SilentApi | undefined;
afterEach(async () => {
  await api?.close();
  await mock?.close();
  api = undefined;
  mock = undefined;
});
const newJournal = tempJournals("mm-stop-markets-");

describe("daemon: a stop requested while the markets are read at start", () => {
  it("an unanswered GET /api/markets: the read is cut, exit 0 at once, nothing opened", async () => {
    mock = await startMock();
    const a = await silentApi();
    api = a;
    const journal = newJournal();
    const config = daemonConfig(mock, [ARG.slug], {
      MM_EXCHANGE_BASE_URL: a.url,
      MM_SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_MS),
    });
    const { logger } = memoryLogger();
    const r = manualRequests();
    let firedAt = 0;
    const fired = waitFor(() => a.requests.length > 0, 10_000, "GET /api/markets").then(() => {
      firedAt = performance.now();
      r.fire("SIGTERM");
    });
    const notes: string[] = [];
    const outcome = await runUntilStopped(
      (onStopping, stopRequested) => startDaemon(config, { logger, onStopping, stopRequested, journal }),
      { shutdownTimeoutMs: SHUTDOWN_MS, requests: r.requests, notify: (l) => notes.push(l) },
    );
    const tookMs = performance.now() - firedAt;
    await fired;
    // It used to wait for the read (bounded only by the lifecycle's deadline): exit 1, "the stop overran".
    expect(outcome).toEqual({ exitCode: 0, reason: "SIGTERM" });
    expect(notes.some((n) => n.includes("overran"))).toBe(false);
    expect(tookMs).toBeLessThan(SHUTDOWN_MS / 2);
    expect(a.requests[0]).toMatch(/^\/api\/markets/);
    // The in-flight read was cut (the HTTP client closed), not left to its timeout and retries.
    await waitFor(() => a.sockets.every((s) => s.closed), 2_000, "the read's socket to be closed");
    // Nothing was opened: no journal, no gateway connection.
    expect(existsSync(journal.path)).toBe(false);
    expect(mock.admin.state().openSockets).toBe(0);
  });
});
