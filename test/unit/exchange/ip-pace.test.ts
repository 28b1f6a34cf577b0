import { describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import { ipPacedGate } from "../../../src/exchange/ip-pace.js";

/** When each of `n` requests to `route` is let go by the gate, on a SimClock from 0. */
async function releases(route: string, n: number): Promise<number[]> {
  const clock = new SimClock(0);
  const gate = ipPacedGate(clock);
  const at: number[] = [];
  const waits = Array.from({ length: n }, () => {
    const wait = gate("GET", route) ?? Promise.resolve(undefined);
    return wait.then(() => at.push(clock.now()));
  });
  for (let t = 0; t <= 1_000; t += 10) {
    clock.advanceTo(t);
    await Promise.resolve();
  }
  await Promise.all(waits);
  return at;
}

describe("ipPacedGate: keyless public reads at the spec's IP rate", () => {
  it("spaces GET /api/markets and its record reads (one bucket, 600 per 60 s) 100 ms apart", async () => {
    expect(await releases("/api/markets", 3)).toEqual([0, 100, 200]);
    const clock = new SimClock(0);
    const gate = ipPacedGate(clock);
    expect(gate("GET", "/api/markets")).toBeUndefined();
    // The record read shares the list's bucket: it waits its turn behind it.
    expect(gate("GET", "/api/markets/{slug}")).toBeInstanceOf(Promise);
  });

  it("lets an endpoint without an IP limit in the table go at once", () => {
    const gate = ipPacedGate(new SimClock(0));
    expect(gate("GET", "/api/platform/status")).toBeUndefined();
    expect(gate("GET", "/api/platform/status")).toBeUndefined();
  });

  it("ends a wait when the client closes", async () => {
    const gate = ipPacedGate(new SimClock(0));
    const closed = new AbortController();
    gate("GET", "/api/markets", closed.signal);
    const wait = gate("GET", "/api/markets", closed.signal);
    closed.abort();
    await expect(wait).resolves.toBeUndefined();
  });
});
