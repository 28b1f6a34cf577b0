import { subscribe } from "node:diagnostics_channel";
import type { ClientRequest } from "node:http";
import { Worker } from "node:worker_threads";
import { type Daemon, startDaemon } from "../../src/app/daemon.js";
import type { EngineEvent } from "../../src/engine/engine-events.js";
import type { MockExchange } from "../../src/mock/mock-exchange.js";
import type { MarketScenario } from "../../src/mock/scenario/types.js";
import { manyMarkets } from "../integration/daemon/many-markets.js";
import { daemonConfig, memoryLogger, OTHER, WALLET } from "../integration/daemon/support.js";
import type { BenchCase } from "./harness.js";

export const title =
  "Tick-to-order latency: book frame received by the gateway → signed placement written to the socket (100 markets quoted)";

const MARKETS = 100;
/** Bands outside the other trader's ±0.01 quotes, so our own orders never move the mid we read. */
const BANDS = [
  { margin: "0.02", size: "10" },
  { margin: "0.04", size: "25" },
];
/** One tick every 5 ms at most: 400 placements/s, inside the lifted budget. */
const TICK_MS = 5;

interface Sent {
  readonly tokenId: string;
  readonly frameAt: number;
  readonly sentAt: number;
}

// The mock exchange runs in a worker thread (its own event loop, on the other core), as a real
// exchange would be another machine: the bot's thread pays only for its own work. Modules load
// through tsx's loader, registered in the worker (workers do not inherit module hooks).
const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
(async () => {
  (await import(workerData.tsxUrl)).register();
  const { createMockExchange } = await import(workerData.mockUrl);
  const { toWei } = await import(workerData.weiUrl);
  const { scenario, other, wallet } = workerData;
  const mock = await createMockExchange({ scenario, flow: false });
  // The operator-lifted IP limit (MM_QUEUE_IP_LIMIT_FACTOR), which the mock cannot express.
  mock.context.limiter.check = () => ({ allowed: true });
  const venue = mock.context.venue;
  const rest = (m, side, price, outcome) =>
    venue.place({ wallet: other, marketId: m.id, outcome, side, price: toWei(price), quantity: toWei("100") }).orderId;
  for (const m of scenario.markets) {
    const fair = Number(m.initialFairValue);
    rest(m, "buy", (fair - 0.01).toFixed(2), "YES");
    rest(m, "sell", (fair + 0.01).toFixed(2), "YES");
    rest(m, "buy", (1 - fair - 0.01).toFixed(2), "NO");
    rest(m, "sell", (1 - fair + 0.01).toFixed(2), "NO");
  }
  const raised = new Map();
  parentPort.on("message", async (msg) => {
    if (msg.type === "tick") {
      const m = scenario.markets[msg.index];
      const id = raised.get(m.id);
      if (id === undefined) raised.set(m.id, rest(m, "buy", Number(m.initialFairValue).toFixed(2), "YES"));
      else { venue.cancel(other, id); raised.delete(m.id); }
    } else if (msg.type === "open") {
      parentPort.postMessage({ type: "open", n: venue.openOrders(wallet).length });
    } else if (msg.type === "close") {
      await mock.close();
      parentPort.postMessage({ type: "closed" });
    }
  });
  parentPort.postMessage({ type: "ready", http: mock.httpUrl, ws: mock.wsUrl });
})();
`;

/**
 * The daemon (this thread) quoting 100 markets (200 tokens, 800 quotes) on the mock (a worker). A
 * tick is one book change of one market's YES token by another trader (a bid at the fair value,
 * then its cancel), which moves the mid half a tick and makes both of our asks on it requote.
 * Instrumentation, no guessing: the frame time is taken in the gateway's frame hook (the frame is
 * parsed, nothing else done yet); the engine's `place_sent` event marks the signed placement
 * handed to the HTTP client; node's `http.client.request.start` diagnostics channel and the
 * request's `finish` event (its last byte handed to the OS) mark the write. Sends and requests are
 * paired in order (both happen in send order).
 */
class Rig {
  /** Bands quoted per side: each tick requotes this many asks. */
  readonly bands: number;
  /** Precomputed signing nonces (signing.noncePool); 0 signs deterministically, ~0.3 ms each. */
  readonly noncePool: number;
  worker!: Worker;
  daemon!: Daemon;
  markets: MarketScenario[] = [];
  readonly toWrite: number[] = [];
  readonly toSent: number[] = [];
  readonly toQuote: number[] = [];
  readonly #frameAt = new Map<string, number>();
  readonly #sent: Sent[] = [];
  #pending: { tokenId: string; left: number; done: () => void } | undefined;
  #next = 0;

  constructor(bands: number, noncePool: number) {
    this.bands = bands;
    this.noncePool = noncePool;
  }

  async start(): Promise<void> {
    const scenario = manyMarkets(MARKETS, 30_000);
    this.markets = [...scenario.markets];
    const here = (rel: string) => new URL(rel, import.meta.url).href;
    this.worker = new Worker(WORKER, {
      eval: true,
      workerData: {
        scenario,
        other: OTHER,
        wallet: WALLET,
        tsxUrl: here("../../node_modules/tsx/dist/esm/api/index.mjs"),
        mockUrl: here("../../src/mock/mock-exchange.ts"),
        weiUrl: here("../../src/core/wei.ts"),
      },
    });
    const ready = await this.#reply<{ http: string; ws: string }>("ready");
    subscribe("http.client.request.start", (message) => {
      const request = (message as { request: ClientRequest }).request;
      if (request.method !== "POST" || request.path !== "/api/orders/place") return;
      const sent = this.#sent.shift();
      if (sent === undefined) return;
      request.once("finish", () => this.#written(sent, performance.now()));
    });
    const mockUrls = { httpUrl: ready.http, wsUrl: ready.ws } as MockExchange;
    const config = daemonConfig(
      mockUrls,
      ["*"],
      {
        MM_ENGINE_STRATEGY: JSON.stringify({ name: "bands", params: { bands: BANDS.slice(0, this.bands) } }),
        MM_QUEUE_RATE_LIMIT_PER_MIN: "30000",
        MM_QUEUE_IP_LIMIT_FACTOR: "100",
        MM_QUEUE_CONCURRENCY: "32",
        MM_LOG_LEVEL: "warn",
        MM_SIGNING_NONCE_POOL: String(this.noncePool),
      },
      scenario,
    );
    this.daemon = await startDaemon(config, {
      logger: memoryLogger("warn").logger,
      onMarketFrame: (frame) => {
        if (frame.type === "book_delta" && typeof frame.id === "string")
          this.#frameAt.set(frame.id, performance.now());
      },
      listener: (e) => this.#onEvent(e),
    });
    const deadline = Date.now() + 60_000;
    while ((await this.#open()) < MARKETS * 4 * this.bands) {
      if (Date.now() > deadline) throw new Error("the quotes did not all rest within 60 s");
      await new Promise((r) => setTimeout(r, 100));
    }
    this.toWrite.length = 0;
    this.toSent.length = 0;
    this.toQuote.length = 0;
  }

  /** One tick; resolves when the requoted asks of its token are written (or after 1 s). */
  async tick(): Promise<void> {
    const t0 = performance.now();
    const index = this.#next++ % this.markets.length;
    const m = this.markets[index] as MarketScenario;
    const written = new Promise<void>((done) => {
      this.#pending = { tokenId: m.yesTokenId, left: this.bands, done };
    });
    this.worker.postMessage({ type: "tick", index });
    await Promise.race([written, new Promise((r) => setTimeout(r, 1_000))]);
    this.#pending = undefined;
    const pause = TICK_MS - (performance.now() - t0);
    if (pause > 0) await new Promise((r) => setTimeout(r, pause));
  }

  async stop(): Promise<void> {
    await this.daemon.stop("bench over");
    this.worker.postMessage({ type: "close" });
    await this.#reply("closed");
    await this.worker.terminate();
  }

  #open(): Promise<number> {
    this.worker.postMessage({ type: "open" });
    return this.#reply<{ n: number }>("open").then((r) => r.n);
  }

  #reply<T>(type: string): Promise<T> {
    return new Promise((resolve) => {
      const on = (msg: { type: string } & T) => {
        if (msg.type !== type) return;
        this.worker.off("message", on);
        resolve(msg);
      };
      this.worker.on("message", on);
    });
  }

  #onEvent(e: EngineEvent): void {
    if (e.type === "quote" && e.places > 0 && this.#pending?.tokenId === e.tokenId) {
      const frameAt = this.#frameAt.get(e.tokenId);
      if (frameAt !== undefined) this.toQuote.push(performance.now() - frameAt);
    }
    if (e.type !== "place_sent") return;
    const frameAt = this.#frameAt.get(e.tokenId);
    if (frameAt !== undefined) this.#sent.push({ tokenId: e.tokenId, frameAt, sentAt: performance.now() });
  }

  #written(s: Sent, at: number): void {
    const p = this.#pending;
    if (p === undefined || p.tokenId !== s.tokenId) return;
    this.toWrite.push(at - s.frameAt);
    this.toSent.push(s.sentAt - s.frameAt);
    if (--p.left === 0) p.done();
  }
}

function report(label: string, samples: number[]): void {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) =>
    (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN).toFixed(3);
  const n = sorted.length.toLocaleString("en-US");
  console.log(
    `${label}: p50 ${at(0.5)} ms, p90 ${at(0.9)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms (n = ${n})`,
  );
}

function rigCase(bands: number, noncePool: number, baseline: boolean): BenchCase {
  const rig = new Rig(bands, noncePool);
  const signing = noncePool > 0 ? `nonce pool ${noncePool}` : "deterministic signing";
  const label = `${bands} band${bands === 1 ? "" : "s"}, ${signing}`;
  return {
    name: `book tick → ${bands} requoted ask${bands === 1 ? "" : "s"} written (100 markets, ${label})`,
    baseline,
    batch: 50,
    setup: () => rig.start(),
    run: async (n) => {
      for (let i = 0; i < n; i++) await rig.tick();
    },
    teardown: async () => {
      report(`${label}: frame received → signed placement written to the socket`, rig.toWrite);
      report(`${label}: frame received → signed placement handed to the HTTP client`, rig.toSent);
      report(`${label}: frame received → quoting step done (strategy, risk, diff)`, rig.toQuote);
      await rig.stop();
    },
  };
}

export function benches(): BenchCase[] {
  // Baseline: the default two bands signing deterministically (no nonce pool), side by side with
  // the default configuration (pool of 64) and with one band.
  return [rigCase(2, 0, true), rigCase(2, 64, false), rigCase(1, 64, false)];
}
