import { SimClock } from "../../../src/core/sim-clock.js";
import { authenticate } from "../../../src/mock/auth/authenticate.js";
import { buildMockContext } from "../../../src/mock/build-context.js";
import type { MockContext } from "../../../src/mock/context.js";
import { AdminError } from "../../../src/mock/faults/admin-error.js";
import type { GatewayControl } from "../../../src/mock/faults/gateway-control.js";
import { defaultScenarioPath, loadScenario } from "../../../src/mock/scenario/load.js";
import type { FlowScenario, Scenario } from "../../../src/mock/scenario/types.js";
import { SplitMix64 } from "../../../src/venue/ids.js";
import type { SimVenue } from "../../../src/venue/sim-venue.js";

/** 2026-06-01T00:00:00Z: after the scenario's expired key's date, like a real run. */
export const T0 = Date.parse("2026-06-01T00:00:00.000Z");

/** The wallet of partner-mm (single_wallet, KYC tier 1, all scopes on key 0). */
export const MM_WALLET = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266" as const;

/** The same uniform source buildMockContext gives ctx.random, for pure-function tests. */
export function seededUniform(seed: number): () => number {
  const rng = new SplitMix64(seed);
  return () => Number(rng.next() >> 11n) / 2 ** 53;
}

/** The shipped scenario, optionally with another seed and flow parameters. */
export function scenario(overrides: { seed?: number; flow?: Partial<FlowScenario> } = {}): Scenario {
  const base = loadScenario(defaultScenarioPath());
  return {
    ...base,
    seed: overrides.seed ?? base.seed,
    flow: { ...base.flow, ...overrides.flow },
  };
}

/** A mock context on a SimClock at T0. */
export function simContext(s: Scenario = scenario()): { ctx: MockContext; clock: SimClock } {
  const clock = new SimClock(T0);
  return { ctx: buildMockContext({ scenario: s, clock }), clock };
}

/** One venue call as the operation log records it (bigints as strings). */
export interface VenueCall {
  readonly method: string;
  readonly args: string;
  readonly result: string;
}

const RECORDED = new Set(["place", "cancel", "cancelAll", "setMarketStatus", "credit", "debit"]);

/**
 * A view of the context whose venue records every mutating call (method, arguments, result) into
 * `log`: the "venue operation log" the determinism tests compare.
 */
export function recordingContext(ctx: MockContext, log: VenueCall[]): MockContext {
  const venue = new Proxy(ctx.venue, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof value !== "function") return value;
      const fn = value as (...args: unknown[]) => unknown;
      if (!RECORDED.has(String(prop))) return fn.bind(target);
      return (...args: unknown[]) => {
        const result = fn.apply(target, args);
        log.push({ method: String(prop), args: json(args), result: json(result) });
        return result;
      };
    },
  }) as SimVenue;
  return { ...ctx, venue };
}

function json(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === "bigint" ? x.toString() : x)) ?? "undefined";
}

/** One call a FakeGateway received. */
export type GatewayCall =
  | { fn: "dropAll" }
  | { fn: "closeKey"; keyId: string; reason: string }
  | { fn: "closePartner"; partnerId: string; reason: string }
  | { fn: "publishPlatformStatus" }
  | { fn: "publishMarketLifecycle"; conditionId: string; event: unknown }
  | { fn: "dropSubscriptions"; tokenIds: readonly string[] };

/** A hand-written GatewayControl that records what the admin asked of it. */
export class FakeGateway implements GatewayControl {
  readonly calls: GatewayCall[] = [];
  sockets = 0;

  dropAll(): void {
    this.calls.push({ fn: "dropAll" });
    this.sockets = 0;
  }
  dropSubscriptions(tokenIds: readonly string[]): number {
    this.calls.push({ fn: "dropSubscriptions", tokenIds });
    return 0;
  }
  closeKey(keyId: string, reason: string): void {
    this.calls.push({ fn: "closeKey", keyId, reason });
  }
  closePartner(partnerId: string, reason: string): void {
    this.calls.push({ fn: "closePartner", partnerId, reason });
  }
  publishPlatformStatus(): void {
    this.calls.push({ fn: "publishPlatformStatus" });
  }
  publishMarketLifecycle(conditionId: string, event: unknown): void {
    this.calls.push({ fn: "publishMarketLifecycle", conditionId, event });
  }
  openSockets(): number {
    return this.sockets;
  }
}

/** The mock's own auth check for a key (and wallet) from loopback, as a request would meet it. */
export function authAs(ctx: MockContext, apiKey: string, userWallet?: string) {
  return authenticate(ctx.directory, ctx.clock, {
    apiKey,
    userWallet,
    ip: "127.0.0.1",
    scopes: [],
    needsWallet: true,
  });
}

/** The status and code of the AdminError `fn` throws; fails when it throws nothing or something else. */
export function codeOf(fn: () => unknown): { status: number; code: string } {
  try {
    fn();
  } catch (err) {
    if (err instanceof AdminError) return { status: err.status, code: err.code };
    throw err;
  }
  throw new Error("expected an AdminError");
}

/** The details of the AdminError `fn` throws (what /__admin answers beside the code, e.g. `field`). */
export function detailsOf(fn: () => unknown): Record<string, unknown> {
  try {
    fn();
  } catch (err) {
    if (err instanceof AdminError) return { ...err.details };
    throw err;
  }
  throw new Error("expected an AdminError");
}
