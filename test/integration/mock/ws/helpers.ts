import WebSocket from "ws";
import { SimClock } from "../../../../src/core/sim-clock.js";
import type { Address } from "../../../../src/core/types.js";
import { toWei } from "../../../../src/core/wei.js";
import { buildMockContext } from "../../../../src/mock/build-context.js";
import type { MockContext } from "../../../../src/mock/context.js";
import { listenHttp } from "../../../../src/mock/http/listen.js";
import { defaultScenarioPath, loadScenario } from "../../../../src/mock/scenario/load.js";
import type { ApiKeyScenario, Scenario, TimingScenario } from "../../../../src/mock/scenario/types.js";
import { attachGateways, type Gateways } from "../../../../src/mock/ws/index.js";
import type { PlacementResult } from "../../../../src/venue/types.js";

/** Keys of config/mock/default.json, by what the tests use them for. */
export const KEYS = {
  full: "mm_test_ba9533dcb8d806b6_ZS2A_RVQIyZo0QcwFbjXI0VP1uldYHzRqIwwTzj40RU",
  read: "mm_test_e03d44eb088dd604_ZWYqx7w9hDl0_7sK2OWukM0XqTChMu--Fsu8P6hsZXs",
  multiKyc: "mm_test_6af8b0dc45f787c6_4tfzTI-Y2e1P-z0lbzNzEBcwkupZKWB2dO3E7ymNtL4",
  multiEntity: "mm_test_54494c6f99b80e5d_VOItLqtcq6nQ3vHuGokZQ37JE_P71xBSaEsQ8aXvs6I",
  suspended: "mm_test_75aa7808de98cc05_r7FUbEo4tkNjCRkGechtXvGBytrjOlEpdHx0YXKaD7k",
  revoked: "mm_test_b3c6b4789407ff1f_HKdSxw0hIhe0Mn4HDWYTP0zi8BSzPf_FTAD7_DOuGh4",
  expired: "mm_test_da4272b6c0b2c9b5_CDzN1OystuNPfpsbvnPs6A-f6JL3oD0w-a_D0VtrAz4",
  ipAllowlisted: "mm_test_ce18c004535ba603_KaeL12SO-LVpgxRnhJep27wccT4lsCvZWcFuyQ8-3gM",
  noWallet: "mm_test_31992d81d28e33c1_0LjDNH3N2z0CEFF2dl3dUYhvGyTsG7QlpvLe4SS1ODQ",
  /** Added by the tests' scenario: partner-mm, markets:read only. */
  marketsOnly: `mm_test_00000000000000aa_${Buffer.alloc(32, 7).toString("base64url")}`,
} as const;

/** partner-mm's associated wallet (single_wallet), funded with shares of every token. */
export const MM_WALLET = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266" as Address;
/** A KYC'd scenario wallet with USDC only; acts through the multi_wallet KYC partner. */
export const OTHER_WALLET = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8" as Address;
/** Start of the tests' simulated time (after the scenario's expired key's expiresAt). */
export const T0 = Date.parse("2026-06-01T00:00:00.000Z");

export interface Mock {
  readonly ctx: MockContext;
  readonly clock: SimClock;
  readonly scenario: Scenario;
  readonly wsUrl: string;
  readonly gateways: Gateways;
  close(): Promise<void>;
}

/** A mock on 127.0.0.1 with the default scenario (plus the markets-only key) and a SimClock. */
export async function startMock(
  opts: { timing?: Partial<TimingScenario>; allowedOrigins?: string[]; maxBufferedBytes?: number } = {},
): Promise<Mock> {
  const base = loadScenario(defaultScenarioPath());
  const extraKey: ApiKeyScenario = {
    key: KEYS.marketsOnly,
    partnerId: "partner-mm",
    scopes: ["markets:read"],
    ipAllowlist: [],
    revoked: false,
  };
  const scenario: Scenario = {
    ...base,
    timing: { ...base.timing, ...opts.timing },
    apiKeys: [...base.apiKeys, extraKey],
  };
  const clock = new SimClock(T0);
  const ctx = buildMockContext({ scenario, clock });
  const http = await listenHttp(ctx, []);
  const gateways = attachGateways(http.server, ctx, {
    ...(opts.allowedOrigins === undefined ? {} : { allowedOrigins: opts.allowedOrigins }),
    ...(opts.maxBufferedBytes === undefined ? {} : { maxBufferedBytes: opts.maxBufferedBytes }),
  });
  return {
    ctx,
    clock,
    scenario,
    wsUrl: http.url.replace(/^http/, "ws"),
    gateways,
    close: async () => {
      await gateways.close();
      await http.close();
      ctx.venue.dispose();
    },
  };
}

/** One JSON frame as received. */
// biome-ignore lint/suspicious/noExplicitAny: frames are asserted field by field in the tests
export type Frame = Record<string, any>;

/**
 * A `ws` client that records every frame. `take(pred)` returns (and consumes) the first frame not
 * yet taken that matches, waiting for it if needed; `barrier()` is a ping round trip: frames are
 * ordered per socket, so once the pong is in, everything the server sent before it is too.
 */
export class TestSocket {
  readonly ws: WebSocket;
  readonly frames: Frame[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  readonly #taken = new Set<Frame>();
  #waiters: (() => void)[] = [];
  #nextId = 1;

  constructor(url: string, headers: Record<string, string> = {}) {
    this.ws = new WebSocket(url, { headers });
    // Errors (a refused upgrade, a reset) surface as `closed`; an unhandled 'error' would throw.
    this.ws.on("error", () => undefined);
    this.closed = new Promise((resolve) => {
      this.ws.once("close", (code, reason) => resolve({ code, reason: reason.toString() }));
    });
    this.ws.on("message", (data) => {
      this.frames.push(JSON.parse(String(data)) as Frame);
      for (const w of this.#waiters.splice(0)) w();
    });
  }

  /** The first untaken frame matching `pred`, waiting up to `timeoutMs` for it. */
  async take(pred: (f: Frame) => boolean, timeoutMs = 3_000): Promise<Frame> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.frames.find((f) => !this.#taken.has(f) && pred(f));
      if (found !== undefined) {
        this.#taken.add(found);
        return found;
      }
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`no matching frame within ${timeoutMs} ms; got ${JSON.stringify(this.frames)}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.#waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  /** Frames of one type, in arrival order (taken or not). */
  ofType(type: string): Frame[] {
    return this.frames.filter((f) => f.type === type);
  }

  sendRaw(text: string): void {
    this.ws.send(text);
  }

  /** Sends `{id, cmd, params}` and resolves with the frame answering that id. */
  async command(cmd: string, params?: unknown): Promise<Frame> {
    const id = `c${this.#nextId++}`;
    this.ws.send(JSON.stringify(params === undefined ? { id, cmd } : { id, cmd, params }));
    return this.take((f) => f.id === id && f.data === undefined);
  }

  async subscribe(channel: string, ids?: string[]): Promise<Frame> {
    return this.command("subscribe", { subscriptions: [ids === undefined ? { channel } : { channel, ids }] });
  }

  async barrier(): Promise<void> {
    await this.command("ping");
  }

  close(): void {
    this.ws.terminate();
  }
}

/** Opens a socket and waits for its `connected` frame (throws if it is closed instead). */
export async function connect(url: string, headers: Record<string, string> = {}): Promise<TestSocket> {
  const s = new TestSocket(url, headers);
  const first = await Promise.race([
    s.take((f) => f.type === "connected"),
    s.closed.then((c) => {
      throw new Error(`closed ${c.code} ${c.reason}`);
    }),
  ]);
  if (first.type !== "connected") throw new Error("no connected frame");
  return s;
}

/** A limit order straight into the venue (what the HTTP API does after its checks). */
export function place(
  ctx: MockContext,
  o: {
    wallet: Address;
    marketId: string;
    side: "buy" | "sell";
    price: string;
    qty: string;
    outcome?: string;
    clientOrderId?: string;
    timeInForce?: "gtc" | "ioc" | "fok";
  },
): PlacementResult {
  const r = ctx.venue.place({
    wallet: o.wallet,
    marketId: o.marketId,
    outcome: o.outcome ?? "YES",
    side: o.side,
    price: toWei(o.price),
    quantity: toWei(o.qty),
    ...(o.clientOrderId === undefined ? {} : { clientOrderId: o.clientOrderId }),
    ...(o.timeInForce === undefined ? {} : { timeInForce: o.timeInForce }),
  });
  if (r.status === "REJECTED") throw new Error(`placement rejected: ${r.code} ${r.message}`);
  return r;
}
