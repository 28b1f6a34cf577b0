import { describe, expect, it } from "vitest";
import { SimClock } from "../../../../src/core/sim-clock.js";
import {
  REST_READ_SID,
  StatusReads,
  type StatusSource,
} from "../../../../src/gateway/record/status-reads.js";
import type { ChannelEvent } from "../../../../src/gateway/schema/events.js";
import { parseEventFrame } from "../../../../src/gateway/schema/events.js";
import type { MarketFrame } from "../../../../src/recorded/format.js";

const C1 = `0x${"ab".repeat(32)}`;

/** A REST source whose reads the test answers one by one, in the order they were asked. */
class FakeSource implements StatusSource {
  readonly pending: { key: string; answer: (status: string) => void; fail: (err: Error) => void }[] = [];
  market(conditionId: string) {
    return new Promise<{ status: string; via: string }>((ok, no) => {
      this.pending.push({
        key: conditionId,
        answer: (status) => ok({ status, via: `GET /api/markets/m-${conditionId.slice(2, 6)}` }),
        fail: no,
      });
    });
  }
  platform() {
    return new Promise<{ data: Record<string, unknown>; via: string }>((ok, no) => {
      this.pending.push({
        key: "platform_status",
        answer: (s) => ok({ data: { frozen: s === "frozen" }, via: "GET /api/platform/status" }),
        fail: no,
      });
    });
  }
}

const flush = () => new Promise((ok) => setTimeout(ok, 0));

/** `takes`: whether the writer takes the frames (false: it failed, as on a stalled disk). */
function setup(takes = true) {
  const source = new FakeSource();
  const written: MarketFrame[] = [];
  const write = (f: MarketFrame) => takes && written.push(f) > 0;
  const reads = new StatusReads({ source, clock: new SimClock(1_000), write });
  return { source, written, reads };
}

const paused = { type: "market_paused", conditionId: C1, tsMs: 1 } as ChannelEvent;

describe("StatusReads", () => {
  it("writes each (re)accepted status as the event the replay reads, marked as a REST read", async () => {
    const { source, written, reads } = setup();
    reads.accepted("condition_lifecycle", [C1.toUpperCase().replace("0X", "0x")]);
    reads.accepted("system", ["platform_status"]);
    reads.accepted("token_book", ["1"]); // not a status
    expect(source.pending.map((p) => p.key)).toEqual([C1, "platform_status"]);
    source.pending[0]?.answer("OPEN");
    source.pending[1]?.answer("thawed");
    await flush();
    expect(written).toHaveLength(2);
    expect(written[0]).toMatchObject({
      type: "market_status",
      sid: REST_READ_SID,
      id: C1,
      data: { conditionId: C1, status: "OPEN", tsMs: 1_000 },
    });
    expect(written[1]).toMatchObject({
      type: "platform_status",
      sid: REST_READ_SID,
      data: { frozen: false },
    });
    // Both pass the parser the replay feeds (the live gateway's).
    for (const f of written)
      expect(parseEventFrame(f as Record<string, unknown>, "market")).toHaveProperty("event");
    expect(reads.counts).toEqual({ recorded: 2, failed: 0, superseded: 0 });
  });

  it("drops a read answered after a push of the same status: the push may be newer", async () => {
    const { source, written, reads } = setup();
    reads.accepted("condition_lifecycle", [C1]);
    reads.seen(paused);
    source.pending[0]?.answer("OPEN"); // read before the pause was pushed
    await flush();
    expect(written).toEqual([]);
    expect(reads.counts).toEqual({ recorded: 0, failed: 0, superseded: 1 });
  });

  it("drops an earlier read answered after a later one began (a second reconnect)", async () => {
    const { source, written, reads } = setup();
    reads.accepted("condition_lifecycle", [C1]);
    reads.accepted("condition_lifecycle", [C1]);
    source.pending[1]?.answer("PAUSED");
    source.pending[0]?.answer("OPEN");
    await flush();
    expect(written.map((f) => (f.data as { status: string }).status)).toEqual(["PAUSED"]);
    expect(reads.counts.superseded).toBe(1);
  });

  it("records nothing for a failed read and counts it; answers after stop are dropped", async () => {
    const { source, written, reads } = setup();
    reads.accepted("condition_lifecycle", [C1]);
    reads.accepted("system", ["platform_status"]);
    source.pending[0]?.fail(new Error("ECONNREFUSED"));
    await flush();
    reads.stop();
    source.pending[1]?.answer("frozen");
    reads.accepted("condition_lifecycle", [C1]); // nothing starts once stopped
    await flush();
    expect(written).toEqual([]);
    expect(source.pending).toHaveLength(2);
    expect(reads.counts).toEqual({ recorded: 0, failed: 1, superseded: 0 });
  });

  /*
   * s19 r2recfix: `recorded` counted a read whose frame the writer refused (it had failed: the
   * recording was stopping on a stalled or failed disk, the read answered meanwhile), so the
   * summary claimed a status in the files that no file holds.
   */
  it("does not count as recorded a read whose frame the writer refused", async () => {
    const { source, written, reads } = setup(false);
    reads.accepted("condition_lifecycle", [C1]);
    source.pending[0]?.answer("PAUSED");
    await flush();
    expect(written).toEqual([]);
    expect(reads.counts).toEqual({ recorded: 0, failed: 0, superseded: 0 });
  });
});
