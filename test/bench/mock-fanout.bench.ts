import { Worker } from "node:worker_threads";
import WebSocket from "ws";
import type { Address } from "../../src/core/types.js";
import { toWei } from "../../src/core/wei.js";
import { buildMockContext } from "../../src/mock/build-context.js";
import type { MockContext } from "../../src/mock/context.js";
import { type HttpListener, listenHttp } from "../../src/mock/http/listen.js";
import { defaultScenarioPath, loadScenario } from "../../src/mock/scenario/load.js";
import { attachGateways, type Gateways } from "../../src/mock/ws/index.js";
import type { BenchCase } from "./harness.js";

export const title =
  "Mock exchange: token_book fan-out over loopback WebSockets (venue change → frame at every client)";

const KEY = "mm_test_ba9533dcb8d806b6_ZS2A_RVQIyZo0QcwFbjXI0VP1uldYHzRqIwwTzj40RU";
const WALLET = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266" as Address;

/** A mock (wall clock) serving one token's book, and a way to change that book once. */
class MockUnderTest {
  ctx!: MockContext;
  url = "";
  tokenId = "";
  #http!: HttpListener;
  #gateways!: Gateways;
  #resting: string | undefined;

  async start(): Promise<void> {
    this.ctx = buildMockContext({ scenario: loadScenario(defaultScenarioPath()) });
    this.tokenId = this.ctx.scenario.markets[0]?.yesTokenId ?? "";
    this.#http = await listenHttp(this.ctx, []);
    this.#gateways = attachGateways(this.#http.server, this.ctx, {});
    this.url = `${this.#http.url.replace(/^http/, "ws")}/ws/market`;
  }

  /** One venue book change (a resting bid, then its cancel); returns the ms it took in the venue call. */
  change(): number {
    const t0 = performance.now();
    if (this.#resting === undefined) {
      const marketId = this.ctx.scenario.markets[0]?.id ?? "";
      const order = { wallet: WALLET, marketId, outcome: "YES", side: "buy" as const };
      this.#resting = this.ctx.venue.place({ ...order, price: toWei("0.42"), quantity: toWei("10") }).orderId;
    } else {
      this.ctx.venue.cancel(WALLET, this.#resting);
      this.#resting = undefined;
    }
    return performance.now() - t0;
  }

  async stop(): Promise<void> {
    await this.#gateways.close();
    await this.#http.close();
    this.ctx.venue.dispose();
  }
}

// Subscribers in a worker thread (their own event loop, like a bot in its own process). They
// stamp each book_delta with process.hrtime (one monotonic clock for every thread) and report a
// seq once all of them have it.
const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const WebSocket = require("ws");
const { url, key, tokenId, n } = workerData;
const got = new Map();
let ready = 0;
for (let i = 0; i < n; i++) {
  const ws = new WebSocket(url, { headers: { "X-Api-Key": key } });
  ws.on("open", () => ws.send(JSON.stringify({ id: 1, cmd: "subscribe", params: { subscriptions: [{ channel: "token_book", ids: [tokenId] }] } })));
  ws.on("message", (raw) => {
    const at = process.hrtime.bigint();
    const f = JSON.parse(String(raw));
    if (f.type === "book_snapshot" && ++ready === n) parentPort.postMessage({ ready: true });
    if (f.type !== "book_delta") return;
    const list = got.get(f.data.seq) ?? [];
    list.push(at);
    got.set(f.data.seq, list);
    if (list.length === n) { got.delete(f.data.seq); parentPort.postMessage({ seq: f.data.seq, at: list }); }
  });
}
`;

/**
 * One case: `subscribers` `ws` clients on the token_book of one token, in this thread or in a
 * worker. An op is one venue book change, timed from just before the venue call to each client's
 * parsed book_delta; every client's latency is kept and teardown prints p50/p99/max, with the
 * venue call itself (formatting the frame once and writing it to every socket) beside it.
 */
function fanout(subscribers: number, where: "thread" | "worker", baseline = false): BenchCase {
  const mock = new MockUnderTest();
  const latencies: number[] = [];
  const publishing: number[] = [];
  let clients: WebSocket[] = [];
  let worker: Worker | undefined;
  let pending: { t0: bigint; left: number; done: () => void } | undefined;

  const oneChange = () =>
    new Promise<void>((resolve) => {
      pending = { t0: process.hrtime.bigint(), left: subscribers, done: resolve };
      publishing.push(mock.change());
    });
  const record = (at: bigint) => {
    if (pending === undefined) return;
    latencies.push(Number(at - pending.t0) / 1e6);
    if (--pending.left === 0) pending.done();
  };

  return {
    name: `book change → ${subscribers} subscriber${subscribers === 1 ? "" : "s"} (${where})`,
    baseline,
    batch: 200,
    setup: async () => {
      await mock.start();
      if (where === "thread") {
        clients = await Promise.all(
          Array.from({ length: subscribers }, () => subscribed(mock.url, mock.tokenId)),
        );
        for (const c of clients) {
          c.on("message", (raw) => {
            const at = process.hrtime.bigint();
            if ((JSON.parse(String(raw)) as { type: string }).type === "book_delta") record(at);
          });
        }
        return;
      }
      const w = new Worker(WORKER, {
        eval: true,
        workerData: { url: mock.url, key: KEY, tokenId: mock.tokenId, n: subscribers },
      });
      worker = w;
      await new Promise<void>((resolve) => w.once("message", () => resolve()));
      w.on("message", (m: { at: bigint[] }) => {
        for (const at of m.at) record(at);
      });
    },
    run: async (n) => {
      for (let i = 0; i < n; i++) await oneChange();
    },
    teardown: async () => {
      report(`${subscribers} subscriber(s) in a ${where}: frame at each client`, latencies);
      report(
        `${subscribers} subscriber(s) in a ${where}: venue call incl. writes to every socket`,
        publishing,
      );
      for (const c of clients) c.terminate();
      await worker?.terminate();
      await mock.stop();
    },
  };
}

/** A client subscribed to one token's book, resolved once its snapshot is in. */
function subscribed(url: string, tokenId: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers: { "X-Api-Key": KEY } });
    ws.once("error", reject);
    const subscribe = {
      id: 1,
      cmd: "subscribe",
      params: { subscriptions: [{ channel: "token_book", ids: [tokenId] }] },
    };
    ws.once("open", () => ws.send(JSON.stringify(subscribe)));
    const onMessage = (raw: WebSocket.RawData) => {
      if ((JSON.parse(String(raw)) as { type: string }).type !== "book_snapshot") return;
      ws.off("message", onMessage);
      resolve(ws);
    };
    ws.on("message", onMessage);
  });
}

function report(label: string, samples: number[]): void {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) =>
    (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN).toFixed(3);
  const n = sorted.length.toLocaleString("en-US");
  console.log(`${label}: p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms (n = ${n})`);
}

export function benches(): BenchCase[] {
  return [fanout(1, "thread", true), fanout(100, "thread"), fanout(1, "worker"), fanout(100, "worker")];
}
