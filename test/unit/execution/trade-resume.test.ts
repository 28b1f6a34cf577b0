import { describe, expect, it } from "vitest";
import { TradeResume } from "../../../src/execution/trade-resume.js";

/*
 * Where each reconcile's trade paging starts (TradeResume): on from a capped paging's cursor; once
 * at the end, at the last page before which every trade is older than the run's cut-off; nothing
 * kept for a history served newest first or whose order no paging has shown.
 */

/** Reads `pages` (stamps per page, keyed by cursor; "" the history's start) from where `resume` says. */
function read(resume: TradeResume, pages: Record<string, readonly number[]>, cutOff: number, bound: number) {
  const keys = Object.keys(pages);
  const paging = resume.begin(cutOff, cutOff);
  const start = paging.cursor;
  let k = start ?? "";
  let n = 0;
  for (;;) {
    const i = keys.indexOf(k);
    const next = keys[i + 1] ?? null;
    paging.page(k === "" ? undefined : k, pages[k] ?? [], next);
    n++;
    if (next === null || n >= bound) {
      paging.commit(next !== null);
      return { start, read: n };
    }
    k = next;
  }
}

const OLDEST_FIRST = { "": [1, 2], c2: [3, 4], c3: [5, 6], c4: [7] };

describe("TradeResume", () => {
  it("reads on from a capped paging's cursor, then starts at the last page wholly older than the cut-off", () => {
    const resume = new TradeResume();
    expect(read(resume, OLDEST_FIRST, 6, 2)).toEqual({ start: undefined, read: 2 });
    expect(resume.catchingUp).toBe(true);
    expect(resume.reachMs).toBe(4);
    // A later cut-off, while catching up: the first paging's is kept for the filter.
    expect(resume.sinceMs(100)).toBe(6);
    expect(read(resume, OLDEST_FIRST, 100, 2)).toEqual({ start: "c3", read: 2 });
    expect(resume.catchingUp).toBe(false);
    expect(resume.sinceMs(100)).toBe(100);
    // Every trade before c3 is older than 5; c4 has 6 before it.
    expect(read(resume, OLDEST_FIRST, 5, 50)).toEqual({ start: "c3", read: 2 });
    expect(read(resume, OLDEST_FIRST, 7, 50)).toEqual({ start: "c4", read: 1 });
    // A cut-off before every kept page: from the start.
    expect(read(resume, OLDEST_FIRST, 0, 50)).toEqual({ start: undefined, read: 4 });
  });

  it("keeps nothing for a history served newest first", () => {
    const resume = new TradeResume();
    expect(read(resume, { "": [9, 8], c2: [7, 6], c3: [5] }, 0, 2)).toEqual({ start: undefined, read: 2 });
    expect(resume.catchingUp).toBe(false);
    expect(read(resume, { "": [9, 8], c2: [7, 6], c3: [5] }, 100, 50).start).toBeUndefined();
  });

  it("keeps nothing while no paging has shown the order (one instant), and forgets it once one runs newest first", () => {
    const resume = new TradeResume();
    read(resume, { "": [3, 3], c2: [3] }, 0, 1);
    expect(resume.catchingUp).toBe(false);
    read(resume, OLDEST_FIRST, 0, 50);
    expect(read(resume, OLDEST_FIRST, 100, 50).start).toBe("c4");
    read(resume, { "": [9, 8], c2: [7] }, 100, 50);
    expect(read(resume, OLDEST_FIRST, 100, 50).start).toBeUndefined();
  });

  it("a paging that is not committed (its run failed) leaves the start where it was", () => {
    const resume = new TradeResume();
    read(resume, OLDEST_FIRST, 0, 2);
    resume.begin(0, 0).page("c3", [5, 6], "c4");
    expect(resume.begin(0, 0).cursor).toBe("c3");
  });

  it("a refused kept cursor reads from the start, the catching-up cut-off kept", () => {
    const resume = new TradeResume();
    read(resume, OLDEST_FIRST, 6, 2);
    const paging = resume.begin(100, 100);
    expect(paging.cursor).toBe("c3");
    paging.refused();
    expect(paging.cursor).toBeUndefined();
    paging.page(undefined, [1, 2], "c2");
    paging.commit(true);
    expect(resume.sinceMs(100)).toBe(6);
    expect(resume.begin(100, 100).cursor).toBe("c2");
  });
});
