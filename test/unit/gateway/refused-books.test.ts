import { describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import { RefusedBookRecheck } from "../../../src/gateway/refused-books.js";

/** A recheck over a fake feed: `refused` ids stand refused; resubscribes are recorded, settled by hand. */
function harness() {
  const clock = new SimClock();
  const refused = new Set<string>();
  const sent: string[][] = [];
  const open: (() => void)[] = [];
  const recheck = new RefusedBookRecheck({
    clock,
    backoff: { baseMs: 5_000, maxMs: 300_000 },
    stillRefused: (t) => refused.has(t),
    resubscribe: (ids) => {
      sent.push([...ids]);
      return new Promise<void>((resolve) => open.push(resolve));
    },
  });
  return { clock, refused, sent, open, recheck };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe("RefusedBookRecheck: a batch refused together", () => {
  it("is halved for its next try, and the halves go one after the other (never merged in one command)", async () => {
    const { clock, refused, sent, open, recheck } = harness();
    for (const t of ["a", "b", "c"]) refused.add(t);
    expect(recheck.refused(["a", "b", "c"], "invalid_params")).toEqual({
      ids: ["a", "b", "c"],
      code: "invalid_params",
      attempt: 1,
      inMs: 5_000,
    });
    clock.advanceTo(5_000);
    await tick();
    expect(sent).toEqual([["a", "b"]]); // the second half waits for the first's verdict
    open.shift()?.();
    await tick();
    expect(sent).toEqual([["a", "b"], ["c"]]);

    // [a, b] refused together again: each alone next time, 10 s later.
    expect(recheck.refused(["a", "b"], "invalid_params")).toMatchObject({ attempt: 2, inMs: 10_000 });
    expect(recheck.pending("a")).toEqual({ attempt: 2, inMs: 10_000 });
    open.shift()?.();
    clock.advanceTo(15_000);
    await tick();
    expect(sent.slice(2)).toEqual([["a"]]);
    open.shift()?.();
    await tick();
    expect(sent.slice(2)).toEqual([["a"], ["b"]]);
  });

  it("a batch whose ids were all taken back meanwhile sends nothing; stop() sends nothing queued", async () => {
    const { clock, refused, sent, open, recheck } = harness();
    for (const t of ["a", "b", "c", "d"]) refused.add(t);
    recheck.refused(["a", "b"], "invalid_params");
    recheck.refused(["c", "d"], "invalid_params");
    refused.delete("a");
    clock.advanceTo(5_000);
    await tick();
    expect(sent).toEqual([["b"]]);
    recheck.stop();
    open.shift()?.();
    await tick();
    expect(sent).toEqual([["b"]]);
  });
});
