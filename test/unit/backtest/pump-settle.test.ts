import { describe, expect, it } from "vitest";
import { settle } from "../../../src/backtest/sim/pump.js";

/*
 * settle() must resolve only once everything the simulation set off without waiting for simulated
 * time has run: promise chains of any length and queueMicrotask chains, whatever context the
 * caller is in (a promise continuation, a macrotask callback, a nextTick callback).
 */

function chain(depth: number, done: () => void): void {
  let p: Promise<unknown> = Promise.resolve();
  for (let i = 0; i < depth; i++) p = p.then(() => undefined);
  void p.then(done);
}

function microtasks(depth: number, done: () => void): void {
  if (depth === 0) done();
  else queueMicrotask(() => microtasks(depth - 1, done));
}

async function drained(start: (done: () => void) => void): Promise<boolean> {
  let finished = false;
  start(() => {
    finished = true;
  });
  await settle();
  return finished;
}

describe("settle", () => {
  it("drains long promise and microtask chains from a promise continuation", async () => {
    await Promise.resolve();
    expect(await drained((d) => chain(5_000, d))).toBe(true);
    expect(await drained((d) => microtasks(5_000, d))).toBe(true);
    // Mixed: a chain whose end schedules more microtasks and another chain.
    expect(await drained((d) => chain(100, () => microtasks(100, () => chain(100, d))))).toBe(true);
  });

  it("drains them when called from a macrotask callback", async () => {
    const r = await new Promise<boolean>((resolve) =>
      setImmediate(() => {
        void drained((d) => chain(1_000, () => microtasks(1_000, d))).then(resolve);
      }),
    );
    expect(r).toBe(true);
  });

  it("drains them when called from a nextTick callback", async () => {
    const r = await new Promise<boolean>((resolve) =>
      process.nextTick(() => {
        void drained((d) => microtasks(1_000, () => chain(1_000, d))).then(resolve);
      }),
    );
    expect(r).toBe(true);
  });
});
