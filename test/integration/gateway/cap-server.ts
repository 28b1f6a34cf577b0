import { expect } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import type { GatewayClient } from "../../../src/gateway/client.js";
import type { RejectedIds, RestoredIds } from "../../../src/gateway/waiters.js";
import { type Answer, RawServer, rawClient } from "./raw-server.js";

/** The cap the servers below hold a subscription to: small, so a test layout reaches it. */
export const CAP = 4;

/** How a server counts an update_subscription against the cap. */
export type Counting = "before removals" | "command ids" | "after removals";

/**
 * A server holding each sid's ids, updating them all or nothing, refusing subscription_too_many_ids
 * by `counting`; `refuse` may refuse a command first with a code of its own.
 */
export function capServer(
  counting: Counting = "after removals",
  refuse: (c: { add: string[]; remove: string[] }) => string | undefined = () => undefined,
): { answer: Answer; held: Map<number, Set<string>> } {
  const held = new Map<number, Set<string>>();
  let next = 1;
  const answer: Answer = (c) => {
    const p = c.params ?? {};
    switch (c.cmd) {
      case "subscribe": {
        const [s] = p.subscriptions as { channel: string; ids: string[] }[];
        const sid = next++;
        held.set(sid, new Set(s?.ids ?? []));
        return { type: "subscribed", accepted: [{ sid, channel: s?.channel, ids: s?.ids }], rejected: [] };
      }
      case "update_subscription": {
        const ids = held.get(p.sid as number) ?? new Set<string>();
        const add = (p.add_ids ?? []) as string[];
        const remove = (p.remove_ids ?? []) as string[];
        const code = refuse({ add, remove });
        if (code !== undefined) return { type: "error", code, message: "refused" };
        const after = new Set([...ids].filter((id) => !remove.includes(id)));
        for (const id of add) after.add(id);
        const counted = {
          "before removals": ids.size + add.length,
          "command ids": add.length + remove.length,
          "after removals": after.size,
        }[counting];
        if (counted > CAP) return { type: "error", code: "subscription_too_many_ids", message: "cap" };
        held.set(p.sid as number, after);
        return { type: "subscription_updated", sid: p.sid };
      }
      case "ping":
        return { type: "pong" };
      default:
        return { type: "error", code: "invalid_params", message: "unknown" };
    }
  };
  return { answer, held };
}

const opened: { server: RawServer; client: GatewayClient }[] = [];

/** Closes every client and server capClient opened (afterEach). */
export async function closeCapClients(): Promise<void> {
  for (const { server, client } of opened.splice(0)) {
    await client.close();
    await server.close();
  }
}

/**
 * A client on a SimClock holding token_book `ids` (sid 1) on a server answering `answer`, its
 * subscriptions capped at CAP; rejected/restored collect its reports, updates() the
 * update_subscription commands the server got. Closed by closeCapClients.
 */
export async function capClient(answer: Answer, ids = ["1", "2", "3", "4"]) {
  const server = await new RawServer(answer).listen();
  const clock = new SimClock(0);
  const timing = {
    pingIntervalMs: 60_000,
    silenceTimeoutMs: 120_000,
    backoff: { baseMs: 400, factor: 2, maxMs: 2_000 },
  };
  const c = rawClient(server.url, clock, timing, { random: () => 1, limits: { maxIdsPerSubscription: CAP } });
  opened.push({ server, client: c });
  const rejected: RejectedIds[] = [];
  const restored: RestoredIds[] = [];
  c.onRejected((r) => rejected.push(r));
  c.onRestored((r) => restored.push(r));
  await c.start();
  expect((await c.subscribe("token_book", ids)).accepted).toHaveLength(ids.length);
  const updates = () => server.commands("update_subscription").map((u) => u.params);
  return { c, clock, rejected, restored, updates };
}
