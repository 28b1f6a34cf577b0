import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import {
  PLATFORM_POLL_MS,
  PLATFORM_READ_DEADLINE_MS,
  PlatformWatch,
} from "../../../src/engine/platform-watch.js";

const T0 = 1_750_000_000_000;

/** A status endpoint answered by hand: each read waits until the test answers it. */
class World {
  readonly clock = new SimClock(T0);
  frozen = false;
  readonly applied: [boolean, string][] = [];
  readonly counted: string[] = [];
  readonly pending: ((v: boolean | undefined) => void)[] = [];
  reads = 0;
  readonly watch: PlatformWatch;

  constructor(readable = true) {
    this.watch = new PlatformWatch({
      clock: this.clock,
      log: pino({ level: "silent" }),
      read: readable
        ? () => {
            this.reads++;
            return new Promise((resolve) => this.pending.push(resolve));
          }
        : undefined,
      frozen: () => this.frozen,
      apply: (frozen, source) => {
        this.frozen = frozen;
        this.applied.push([frozen, source]);
      },
      count: (code) => this.counted.push(code),
    });
  }

  /** Answers the oldest pending read and lets its continuation run. */
  async answer(v: boolean | undefined): Promise<void> {
    const r = this.pending.shift();
    if (r === undefined) throw new Error("no read pending");
    r(v);
    for (let i = 0; i < 5; i++) await Promise.resolve();
  }
}

describe("PlatformWatch", () => {
  it("an exchange_unavailable answer is held until the status is read: frozen drops it", async () => {
    const w = new World();
    w.watch.unavailable("exchange_unavailable");
    w.watch.unavailable("exchange_unavailable");
    expect(w.reads).toBe(1); // one read for both
    await w.answer(true);
    expect(w.applied).toEqual([[true, "status"]]);
    expect(w.counted).toEqual([]);
    // Frozen: further answers are the freeze's, not errors, and cost no read.
    w.watch.unavailable("exchange_unavailable");
    expect(w.reads).toBe(1);
  });

  it("not frozen: the held answers count; one that came after the read was sent waits for the next read", async () => {
    const w = new World();
    w.watch.unavailable("exchange_unavailable"); // sends the read
    w.watch.unavailable("exchange_unavailable"); // these two arrive while it is out
    w.watch.unavailable("exchange_unavailable");
    expect(w.reads).toBe(1);
    await w.answer(false);
    // The first arrived before the read; the next two after it was sent: one more read for both.
    expect(w.counted).toEqual(["exchange_unavailable"]);
    expect(w.reads).toBe(2);
    await w.answer(false);
    expect(w.counted).toHaveLength(3);
    w.clock.advanceBy(60_000);
    expect(w.reads).toBe(2); // nothing held, not frozen: no more reads
  });

  it("suspect(): a first 503 reads the status at once; the final answers it explains are dropped", async () => {
    const w = new World();
    w.watch.suspect();
    w.watch.suspect(); // one read in flight at most
    expect(w.reads).toBe(1);
    await w.answer(false); // not frozen yet
    expect(w.reads).toBe(2); // the second came after the first read went out
    w.watch.unavailable("circuit_open"); // a re-sent placement, the breaker now open
    await w.answer(true);
    expect(w.applied).toEqual([[true, "status"]]);
    expect(w.counted).toEqual([]);
    expect(w.reads).toBe(2);
  });

  it("an unreadable status counts the held answers", async () => {
    const w = new World();
    w.watch.unavailable("exchange_unavailable");
    await w.answer(undefined);
    expect(w.counted).toEqual(["exchange_unavailable"]);
    expect(w.applied).toEqual([]);
  });

  it("while frozen the status is polled; a read saying not frozen thaws", async () => {
    const w = new World();
    w.watch.pushed(true);
    w.clock.advanceBy(PLATFORM_POLL_MS - 1);
    expect(w.reads).toBe(0); // a full interval after the push
    w.clock.advanceBy(1);
    expect(w.reads).toBe(1);
    await w.answer(true);
    w.clock.advanceBy(PLATFORM_POLL_MS);
    expect(w.reads).toBe(2);
    await w.answer(false);
    expect(w.applied).toEqual([
      [true, "push"],
      [false, "status"],
    ]);
    w.clock.advanceBy(10 * PLATFORM_POLL_MS);
    expect(w.reads).toBe(2);
  });

  it("the latest word wins: a read in flight when a push arrives is dropped", async () => {
    const w = new World();
    w.watch.unavailable("exchange_unavailable");
    expect(w.reads).toBe(1);
    w.watch.pushed(true); // the freeze push, while the read is out
    await w.answer(false); // an answer from before the push
    expect(w.frozen).toBe(true);
    expect(w.applied).toEqual([[true, "push"]]);
    expect(w.counted).toEqual([]); // frozen: the held answer was the freeze's
  });

  it("answers held before a freeze push are the freeze's, even when the thaw is pushed before the read returns", async () => {
    const w = new World();
    w.watch.unavailable("exchange_unavailable");
    w.watch.unavailable("circuit_open");
    expect(w.reads).toBe(1);
    w.watch.pushed(true); // the freeze, pushed while the read is out
    w.watch.pushed(false); // and its thaw, before the read returns
    await w.answer(true); // overtaken by the pushes: dropped
    expect(w.frozen).toBe(false);
    expect(w.counted).toEqual([]);
  });

  it("check() reads once and resolves; without a status endpoint, answers count at once", async () => {
    const w = new World();
    const done = w.watch.check();
    await w.answer(true);
    await done;
    expect(w.applied).toEqual([[true, "status"]]);

    const bare = new World(false);
    await bare.watch.check();
    bare.watch.unavailable("exchange_unavailable");
    expect(bare.counted).toEqual(["exchange_unavailable"]);
    bare.watch.pushed(true);
    bare.clock.advanceBy(10 * PLATFORM_POLL_MS);
    expect(bare.applied).toEqual([[true, "push"]]);
  });

  it("stop(): no more reads, held answers dropped, late answers ignored", async () => {
    const w = new World();
    w.watch.pushed(true);
    w.clock.advanceBy(PLATFORM_POLL_MS);
    expect(w.reads).toBe(1);
    w.watch.stop();
    await w.answer(false);
    expect(w.applied).toEqual([[true, "push"]]);
    w.clock.advanceBy(10 * PLATFORM_POLL_MS);
    expect(w.reads).toBe(1);
    w.watch.unavailable("exchange_unavailable");
    expect(w.counted).toEqual([]);
  });

  it("a read that has not answered by the deadline counts the held answers; later ones count at once until it does", async () => {
    const w = new World();
    w.watch.unavailable("exchange_unavailable"); // sends the read
    w.watch.unavailable("circuit_open"); // arrives while it is out
    expect(w.reads).toBe(1);
    w.clock.advanceBy(PLATFORM_READ_DEADLINE_MS - 1);
    expect(w.counted).toEqual([]);
    w.clock.advanceBy(1);
    expect(w.counted).toEqual(["exchange_unavailable", "circuit_open"]);
    w.watch.unavailable("exchange_unavailable"); // the status is still unknown: counted at once
    expect(w.counted).toHaveLength(3);
    expect(w.reads).toBe(1); // one read in flight at most, even overdue
    await w.answer(true); // the late answer still applies the freeze
    expect(w.applied).toEqual([[true, "status"]]);
    w.watch.unavailable("exchange_unavailable"); // frozen: the freeze's answer, not an error
    expect(w.counted).toHaveLength(3);
  });

  it("a read answered within the deadline leaves nothing to the deadline; the next read gets a fresh one", async () => {
    const w = new World();
    w.watch.unavailable("exchange_unavailable");
    w.clock.advanceBy(PLATFORM_READ_DEADLINE_MS - 1);
    await w.answer(false);
    expect(w.counted).toEqual(["exchange_unavailable"]);
    w.clock.advanceBy(10 * PLATFORM_READ_DEADLINE_MS);
    expect(w.counted).toHaveLength(1);
    w.watch.unavailable("exchange_unavailable"); // a second read, with its own deadline
    expect(w.reads).toBe(2);
    w.clock.advanceBy(PLATFORM_READ_DEADLINE_MS - 1);
    expect(w.counted).toHaveLength(1);
    w.clock.advanceBy(1);
    expect(w.counted).toHaveLength(2);
  });

  it("check() resolves at the deadline when the read is held; the late answer still applies", async () => {
    const w = new World();
    let done = false;
    const checked = w.watch.check().then(() => {
      done = true;
    });
    await Promise.resolve();
    expect(done).toBe(false);
    w.clock.advanceBy(PLATFORM_READ_DEADLINE_MS);
    await checked;
    expect(done).toBe(true);
    await w.answer(true);
    expect(w.applied).toEqual([[true, "status"]]);
  });

  it("stop() while a check waits for its read: the check resolves, the deadline counts nothing", async () => {
    const w = new World();
    w.watch.unavailable("exchange_unavailable");
    const checked = w.watch.check();
    w.watch.stop();
    await checked;
    w.clock.advanceBy(PLATFORM_READ_DEADLINE_MS);
    expect(w.counted).toEqual([]);
  });
});
