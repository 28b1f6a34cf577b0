import { describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import { UnawaitedCommands } from "../../../src/gateway/unawaited.js";

describe("UnawaitedCommands", () => {
  it("recognises a reply's id once, within the time an awaited command would wait", () => {
    const clock = new SimClock(0);
    const sent = new UnawaitedCommands(clock, 1_000);
    sent.add("c1", "get_book_snapshot");
    clock.advanceBy(999);
    expect(sent.take("c1")).toBe("get_book_snapshot");
    expect(sent.take("c1")).toBeUndefined(); // a second reply to one command is a stray
    expect(sent.take("c404")).toBeUndefined();
  });

  it("forgets ids after the timeout, so a server that never replies leaves nothing behind", () => {
    const clock = new SimClock(0);
    const sent = new UnawaitedCommands(clock, 1_000);
    for (let i = 0; i < 100; i++) sent.add(`c${i}`, "get_book_snapshot");
    clock.advanceBy(500);
    sent.add("late", "get_book_snapshot");
    expect(sent.size).toBe(101);
    clock.advanceBy(500);
    expect(sent.size).toBe(1); // the first hundred aged out; the later one is still awaited
    expect(sent.take("c3")).toBeUndefined(); // its reply now counts as late
    clock.advanceBy(500);
    expect(sent.size).toBe(0);
  });

  it("holds a bounded number of ids when time does not move (oldest forgotten first)", () => {
    const clock = new SimClock(0);
    const sent = new UnawaitedCommands(clock, 1_000);
    for (let i = 0; i < 5_000; i++) sent.add(`c${i}`, "get_book_snapshot");
    expect(sent.size).toBe(4_096);
    expect(sent.take("c0")).toBeUndefined();
    expect(sent.take("c4999")).toBe("get_book_snapshot");
  });
});
