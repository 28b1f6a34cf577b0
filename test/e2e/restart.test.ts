import { afterEach, describe, expect, it } from "vitest";
import type { MockExchange } from "../../src/mock/mock-exchange.js";
import {
  daemonEnv,
  market,
  openOnMock,
  seedMarket,
  settledQuotes,
  startMock,
  WALLET,
  waitFor,
} from "../integration/daemon/support.js";
import { type MmChild, msg, reap, spawnMm } from "./support.js";

const ARG = market("arg-vs-fra-final-arg-win");

let mock: MockExchange | undefined;
const children: MmChild[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) await reap(c);
  await mock?.close();
  mock = undefined;
});

/** Our orders on the mock with their clientOrderIds. */
const ours = (m: MockExchange) =>
  m.context.venue.openOrders(WALLET).map((o) => ({ orderId: o.id, clientOrderId: o.clientOrderId ?? "" }));

/**
 * Starts mm run (session `session`) on the seeded market, waits for settled quotes on both tokens,
 * then kills it with SIGKILL: its quotes stay on the exchange as orphans.
 */
async function crashWhileQuoting(m: MockExchange): Promise<{ orderId: string; clientOrderId: string }[]> {
  const first = spawnMm(["run"], daemonEnv(m, [ARG.slug], { MM_ENGINE_SESSION: "crashed" }));
  children.push(first);
  await first.waitFor(msg("engine started"), 15_000, "the first run to start");
  await settledQuotes(m, ARG.yesTokenId, 4);
  await settledQuotes(m, ARG.noTokenId, 4);
  first.child.kill("SIGKILL");
  expect(await first.exited).toBe("SIGKILL");
  const orphans = ours(m);
  expect(orphans).toHaveLength(8);
  for (const o of orphans) expect(o.clientOrderId).toMatch(/^mm-crashed-/);
  return orphans;
}

describe("restart after a crash (SIGKILL while quoting)", () => {
  it("onStart cancel: the new run cancels every orphan before quoting, then quotes afresh", async () => {
    mock = await startMock();
    seedMarket(mock, ARG, "0.50", "0.60");
    const orphans = await crashWhileQuoting(mock);

    const second = spawnMm(["run"], daemonEnv(mock, [ARG.slug], { MM_ENGINE_SESSION: "fresh" }));
    children.push(second);
    const started = await second.waitFor(msg("engine started"), 15_000, "the second run to start");
    expect(started.adopted).toBe(0);
    const m = mock;
    const open = () => new Set(ours(m).map((o) => o.orderId));
    for (const o of orphans) expect(open().has(o.orderId)).toBe(false);
    await waitFor(() => ours(m).length >= 4, 3_000, "fresh quotes");
    for (const o of ours(m)) expect(o.clientOrderId).toMatch(/^mm-fresh-/);
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
    expect(openOnMock(m)).toEqual([]);
  });

  it("onStart adopt: the new run adopts the orphans as its quotes, keeps those still wanted, cancels them at stop", async () => {
    mock = await startMock();
    seedMarket(mock, ARG, "0.50", "0.60");
    const orphans = await crashWhileQuoting(mock);

    const second = spawnMm(
      ["run"],
      daemonEnv(mock, [ARG.slug], { MM_ENGINE_SESSION: "adopter", MM_RECONCILE_ON_START: "adopt" }),
    );
    children.push(second);
    const started = await second.waitFor(msg("engine started"), 15_000, "the second run to start");
    expect(started.adopted).toBe(orphans.length);
    // The book is the one the crashed run settled on, so its quotes are exactly what the new run
    // wants: they keep resting, managed as this run's own, and nothing new is placed.
    const m = mock;
    await new Promise((r) => setTimeout(r, 1_000));
    expect(
      ours(m)
        .map((o) => o.orderId)
        .sort(),
    ).toEqual(orphans.map((o) => o.orderId).sort());
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
    expect(openOnMock(m)).toEqual([]);
  });
});
