import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SimClock } from "../../src/core/sim-clock.js";
import { GatewayClient } from "../../src/gateway/client.js";
import { type GatewayCounters, total } from "../../src/gateway/counters.js";
import type { RefusedEvent } from "../../src/gateway/refused.js";
import { type ChannelEvent, eventKey, parseEventFrame } from "../../src/gateway/schema/events.js";
import { isRecord } from "../../src/gateway/schema/fields.js";
import type { Channel, GatewayKind } from "../../src/gateway/types.js";
import { politeAnswer, RawServer } from "../integration/gateway/raw-server.js";
import { COND, framesOf, TOKEN, VAULT } from "./frames/corpus.js";
import { definitelyInvalid, expectFaithful } from "./frames/oracle.js";
import { mutateAll, mutateTextAll, mutationsArb, textMutationsArb, tryParse } from "./mutate.js";
import { fuzzAsync, printTally, timeoutFor } from "./runs.js";

/*
 * The whole receive path of a real GatewayClient over a real WebSocket on 127.0.0.1: a scripted
 * server pushes fuzzed frames (mutated valid frames as text, random text, random bytes as binary
 * frames, reply-shaped frames) one at a time, and after each the client's counters must have
 * moved by exactly one frame, in the bucket an independent reading of the frame predicts:
 * malformed (not_json, not_object, missing_type, or the validator's reason), or received by
 * type; an accepted event reaches listeners, unchanged, exactly when its id is subscribed; a
 * refused event is reported through onRefused only on its own channel and only with subscribed
 * ids, and always for a book frame naming the subscribed token (its book must resync). The
 * connection stays up throughout: nothing a server sends throws out of the client.
 */

const started = performance.now();
const WEIGHT = 0.2;
const API_KEY = "mm_test_0123456789abcdef_c2VjcmV0LWZvci1mdXp6aW5nLW9ubHk";
const REPLY_TYPES = new Set([
  "subscribed",
  "subscription_updated",
  "unsubscribed",
  "subscriptions",
  "pong",
  "book_snapshot_requested",
  "error",
]);

interface Rig {
  readonly gateway: GatewayKind;
  readonly server: RawServer;
  readonly client: GatewayClient;
  readonly events: ChannelEvent[];
  readonly refused: RefusedEvent[];
  readonly wanted: ReadonlySet<string>;
}

const rigs = new Map<GatewayKind, Rig>();

async function rig(gateway: GatewayKind): Promise<Rig> {
  const server = await new RawServer(politeAnswer(), {
    connected: () => ({ gateway, authMethod: "api_key", protocolVersion: 2 }),
  }).listen();
  // SimClock: no ping, no watchdog, no timeout ever fires, so every frame seen is the fuzzer's.
  const client = new GatewayClient({ url: server.url, gateway, apiKey: API_KEY, clock: new SimClock(0) });
  const events: ChannelEvent[] = [];
  client.onEvent((e) => events.push(e));
  const refused: RefusedEvent[] = [];
  client.onRefused((r) => refused.push(r));
  await client.start();
  const subs: [Channel, string[]][] =
    gateway === "market"
      ? [
          ["token_book", [TOKEN]],
          ["token_trade_matches", [TOKEN]],
          ["token_trade_settlements", [TOKEN]],
          ["token_ohlc", [TOKEN]],
          ["condition_lifecycle", [COND]],
          ["system", ["platform_status"]],
        ]
      : [
          ["user_fills", []],
          ["user_orders", []],
          ["vault_positions", [VAULT]],
        ];
  const wanted = new Set<string>();
  for (const [channel, ids] of subs) {
    const out = await client.subscribe(channel, ids);
    expect(out.rejected).toEqual([]);
    for (const id of ids.length === 0 ? [""] : ids) wanted.add(`${channel}:${id}`);
  }
  return { gateway, server, client, events, refused, wanted };
}

beforeAll(async () => {
  rigs.set("market", await rig("market"));
  rigs.set("user", await rig("user"));
});

afterAll(async () => {
  for (const r of rigs.values()) {
    await r.client.close();
    await r.server.close();
  }
  printTally("gateway-socket", started);
});

const seen = (c: GatewayCounters) => total(c.malformed) + total(c.framesByType);
const copy = (c: GatewayCounters) => ({
  malformed: { ...c.malformed },
  framesByType: { ...c.framesByType },
  dropped: { ...c.dropped },
});
type Counts = ReturnType<typeof copy>;
const delta = (a: Record<string, number>, b: Record<string, number>) =>
  Object.fromEntries(
    Object.keys(b)
      .filter((k) => (b[k] ?? 0) !== (a[k] ?? 0))
      .map((k) => [k, (b[k] ?? 0) - (a[k] ?? 0)]),
  );

async function until(cond: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setImmediate(r));
  }
}

/** What the client must do with one pushed payload, judged without its code. */
function expectOutcome(
  r: Rig,
  payload: string | Uint8Array,
  before: Counts,
  after: Counts,
  newEvents: ChannelEvent[],
  newRefused: RefusedEvent[],
) {
  const malformed = delta(before.malformed, after.malformed);
  const byType = delta(before.framesByType, after.framesByType);
  const dropped = delta(before.dropped, after.dropped);
  const bad = (reason: string) => {
    expect({ malformed, byType, events: newEvents.length }).toEqual({
      malformed: { [reason]: 1 },
      byType: {},
      events: 0,
    });
  };
  const early = (reason: string) => {
    bad(reason);
    expect(newRefused).toEqual([]);
  };
  if (typeof payload !== "string") return early("not_json");
  // What the socket delivers: the text as UTF-8 (lone surrogates arrive as U+FFFD).
  const parsed = tryParse(Buffer.from(payload, "utf8").toString("utf8"));
  if (!parsed.ok) return early("not_json");
  const v = parsed.value;
  if (!isRecord(v)) return early("not_object");
  // An error object without a type is an error reply (a late one here: nothing is pending).
  const f = v.type === undefined && isRecord(v.error) ? { ...v, type: "error" } : v;
  if (typeof f.type !== "string") return early("missing_type");
  if (f.type === "connected") {
    expect(newRefused).toEqual([]);
    expect({ malformed, byType, dropped }).toEqual({
      malformed: {},
      byType: { connected: 1 },
      dropped: { extra_connected: 1 },
    });
    return;
  }
  if (REPLY_TYPES.has(f.type) && f.data === undefined) {
    // Nothing is pending (no ping on a SimClock): every reply is late.
    expect(newRefused).toEqual([]);
    expect({ malformed, byType, dropped }).toEqual({
      malformed: {},
      byType: { [f.type]: 1 },
      dropped: { late_reply: 1 },
    });
    return;
  }
  const verdict = parseEventFrame(f, r.gateway);
  if ("rejected" in verdict) {
    bad(verdict.rejected);
    expect(newRefused.length).toBeLessThanOrEqual(1);
    for (const n of newRefused) {
      expect(n).toMatchObject({ type: f.type, channel: verdict.channel, rejected: verdict.rejected });
      const ids = n.ids.length === 0 ? [""] : n.ids;
      for (const id of ids) expect(r.wanted.has(`${n.channel}:${id}`), id).toBe(true);
    }
    const d = isRecord(f.data) ? f.data : {};
    if (verdict.rejected.startsWith("book_") && (f.id === TOKEN || d.tokenId === TOKEN)) {
      expect(newRefused.map((n) => n.ids.includes(TOKEN))).toEqual([true]);
    }
    return;
  }
  expect(newRefused).toEqual([]);
  expect(definitelyInvalid(f, r.gateway), "accepted a frame the spec rules out").toBeUndefined();
  expect({ malformed, byType }).toEqual({ malformed: {}, byType: { [f.type]: 1 } });
  const key = eventKey(verdict.event) ?? "";
  if (r.wanted.has(`${verdict.channel}:${key}`)) {
    expect(newEvents.length).toBe(1);
    expectFaithful(f, { ...verdict, event: newEvents[0] as ChannelEvent });
  } else {
    expect({ dropped, events: newEvents.length }).toEqual({ dropped: { unsolicited: 1 }, events: 0 });
  }
}

const payloadArb = (g: GatewayKind): fc.Arbitrary<string | Uint8Array> =>
  fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .tuple(fc.integer({ min: 0, max: framesOf(g).length - 1 }), fc.option(mutationsArb), textMutationsArb)
        .map(([i, ms, ts]) => mutateTextAll(JSON.stringify(mutateAll(framesOf(g)[i], ms ?? [])) ?? "", ts)),
    },
    // Any UTF-16 text, lone surrogates included (a full-Unicode generator costs seconds to set up).
    {
      weight: 1,
      arbitrary: fc
        .array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 60 })
        .map((units) => String.fromCharCode(...units)),
    },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 60 }) },
    {
      weight: 1,
      arbitrary: fc
        .record({
          type: fc.constantFrom(...REPLY_TYPES, "connected"),
          id: fc.oneof(fc.string({ maxLength: 4 }), fc.nat(), fc.constant(undefined)),
          data: fc.option(fc.jsonValue({ maxDepth: 2 }), { nil: undefined }),
        })
        .map((f) => JSON.stringify(f)),
    },
  );

describe("fuzz: gateway client over a real socket", () => {
  for (const gateway of ["market", "user"] as const) {
    it(
      `/ws/${gateway}: every pushed frame is counted once, in the predicted bucket; accepted events arrive intact`,
      async () => {
        const r = rigs.get(gateway) as Rig;
        const conn = r.server.conns[0];
        if (conn === undefined) throw new Error("no server connection");
        await fuzzAsync(
          `gateway socket /ws/${gateway}: pushed frames`,
          fc.asyncProperty(payloadArb(gateway), async (payload) => {
            const c = r.client.counters;
            const before = copy(c);
            const n = seen(c);
            const ev = r.events.length;
            const rf = r.refused.length;
            conn.ws.send(payload, { binary: typeof payload !== "string" });
            await until(() => seen(c) > n, "the client to count the frame");
            expectOutcome(r, payload, before, copy(c), r.events.slice(ev), r.refused.slice(rf));
          }),
          WEIGHT,
        );
        expect(r.client.counters).toMatchObject({
          disconnects: 0,
          reconnects: 0,
          fatal: 0,
          connectionsOpen: 1,
        });
      },
      timeoutFor(WEIGHT),
    );
  }
});
