import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { KEYS, type Mock, startMock } from "../integration/mock/ws/helpers.js";
import { mutateAll, mutateTextAll, mutationsArb, textMutationsArb, tryParse } from "./mutate.js";
import { fuzzAsync, printTally, timeoutFor } from "./runs.js";

/*
 * The mock's WebSocket command parser (src/mock/ws/commands.ts) over a real socket: valid commands
 * of every kind, mutated in tree and text, random JSON and garbage, as text and binary frames.
 * Each frame gets exactly one response, in order, echoing the command's id (null when there was
 * none to read), of a reply type of the spec or `error` with a code of the spec's (never the
 * mock's internal_error); the connection stays open throughout.
 */

const started = performance.now();
const WEIGHT = 0.3;
const REPLIES = new Set([
  "subscribed",
  "subscription_updated",
  "unsubscribed",
  "subscriptions",
  "pong",
  "book_snapshot_requested",
  "error",
]);

let mock: Mock;
let ws: WebSocket;
const responses: Record<string, unknown>[] = [];
let wake: (() => void) | undefined;
let token = "";

beforeAll(async () => {
  mock = await startMock();
  token = mock.scenario.markets[0]?.yesTokenId ?? "";
  ws = new WebSocket(`${mock.wsUrl}/ws/market`, { headers: { "X-Api-Key": KEYS.full } });
  const connected = new Promise<void>((resolve) => {
    ws.on("message", (data) => {
      const f = JSON.parse(String(data)) as Record<string, unknown>;
      if (f.type === "connected") return resolve();
      // Events carry a channel and data; everything else answers a command.
      if (typeof f.channel === "string" && "data" in f) return;
      responses.push(f);
      wake?.();
    });
  });
  await connected;
});

afterAll(async () => {
  ws.close();
  await mock.close();
  printTally("mock-ws", started);
});

async function nextResponse(): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 5_000;
  while (responses.length === 0) {
    if (Date.now() > deadline) throw new Error("no response to the command");
    await new Promise<void>((resolve) => {
      wake = resolve;
      setTimeout(resolve, 50);
    });
  }
  return responses.shift() as Record<string, unknown>;
}

const seeds = (): Record<string, unknown>[] => [
  {
    id: "s1",
    cmd: "subscribe",
    params: {
      subscriptions: [
        { channel: "token_book", ids: [token] },
        { channel: "system", ids: ["platform_status"] },
      ],
    },
  },
  { id: 7, cmd: "update_subscription", params: { sid: 1, add_ids: [token], remove_ids: [] } },
  { id: "u1", cmd: "unsubscribe", params: { sids: [2] } },
  { id: "l1", cmd: "list_subscriptions" },
  { id: "p1", cmd: "ping", params: {} },
  { id: "g1", cmd: "get_book_snapshot", params: { tokenId: token } },
];

const frameArb = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(fc.nat(), fc.option(mutationsArb, { freq: 5 }), fc.option(textMutationsArb, { freq: 3 }))
      .map(([i, ms, ts]) => {
        const s = seeds();
        const v = mutateAll(s[i % s.length], ms ?? []);
        return mutateTextAll(JSON.stringify(v) ?? "", ts ?? []);
      }),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 1, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 30 }) },
);

describe("fuzz: the mock's WebSocket commands", () => {
  it(
    "every frame gets exactly one in-order response echoing its id, with a spec reply type or error code",
    async () => {
      let sent = 0;
      await fuzzAsync(
        "mock ws: fuzzed commands",
        fc.asyncProperty(frameArb, async (frame) => {
          // What the mock reads: text frames as sent, binary ones decoded as UTF-8.
          const text =
            typeof frame === "string" ? Buffer.from(frame).toString() : Buffer.from(frame).toString();
          ws.send(frame, { binary: typeof frame !== "string" });
          sent++;
          const r = await nextResponse();
          const parsed = tryParse(text);
          const obj =
            parsed.ok &&
            typeof parsed.value === "object" &&
            parsed.value !== null &&
            !Array.isArray(parsed.value)
              ? (parsed.value as Record<string, unknown>)
              : undefined;
          const id =
            obj !== undefined && (typeof obj.id === "string" || typeof obj.id === "number") ? obj.id : null;
          // Echoed through JSON: an id of 1e400 (Infinity) comes back as null.
          expect(r.id).toStrictEqual(JSON.parse(JSON.stringify(id)));
          expect(REPLIES.has(r.type as string), JSON.stringify(r).slice(0, 200)).toBe(true);
          if (r.type === "error") {
            expect(
              typeof r.code === "string" && r.code !== "" && r.code !== "internal_error",
              JSON.stringify(r),
            ).toBe(true);
            expect(typeof r.message).toBe("string");
          }
          if (obj === undefined || typeof obj.cmd !== "string")
            expect(r).toMatchObject({ type: "error", code: "invalid_params" });
        }),
        WEIGHT,
      );
      // A last ping: nothing else was queued behind the fuzzer's frames (one response each).
      ws.send(JSON.stringify({ id: "last", cmd: "ping" }));
      expect(await nextResponse()).toMatchObject({ id: "last", type: "pong" });
      expect(responses).toEqual([]);
      expect(ws.readyState).toBe(WebSocket.OPEN);
      expect(sent).toBeGreaterThan(0);
    },
    timeoutFor(WEIGHT),
  );
});
