import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createRecordCommand } from "../../../src/cli/record.js";
import { type RecordedFrame, readRecorded } from "../../../src/recorded/format.js";
import { OffsetClock } from "../../support/offset-clock.js";
import { churn, type Mock, market, settle, startMock, until } from "../gateway/harness.js";
import { recordIo } from "./record-io.js";

/*
 * `mm record` on a host whose wall clock ran 3 hours ahead and is then corrected (a VM resumed
 * with a stale clock, NTP stepping it back). The frames after the correction keep the intervals
 * they arrived at (recvTs continues from the last stamp on the monotonic clock) instead of all
 * sharing the last pre-correction stamp; the step is logged once, with its size.
 */

const root = mkdtempSync(join(tmpdir(), "mm-record-step-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let mock: Mock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const HOUR = 3_600_000;

describe("mm record when the wall clock is corrected back by hours", () => {
  it("keeps the frames' intervals after the correction and logs the step once", async () => {
    mock = await startMock();
    const m = market(mock);
    const clock = new OffsetClock();
    clock.offsetMs = 3 * HOUR;
    const { io, out, err } = recordIo(mock, root);
    const ac = new AbortController();
    const running = createRecordCommand({ signal: ac.signal, clock }).run(
      ["--tokens", m.yesTokenId, "--out", "rec"],
      io,
    );
    await until(() => err.some((l) => l.includes("recording")), "the recorder to subscribe");
    const subscribed = Date.now();
    churn(mock, m, 20, 1);
    await settle(100);
    clock.offsetMs = 0; // corrected: 3 h back
    churn(mock, m, 20, 2);
    await settle(300);
    churn(mock, m, 20, 3);
    await settle(100);
    const ended = Date.now();
    ac.abort();
    expect(await running).toBe(0);

    const summary = JSON.parse(out.join("")) as {
      files: string[];
      recvTsClamped: number;
      clockStepBackMs: number;
    };
    const recs: RecordedFrame[] = [];
    for (const f of summary.files) for await (const r of readRecorded(f)) recs.push(r);
    for (let i = 1; i < recs.length; i++)
      expect(recs[i]?.recvTs).toBeGreaterThanOrEqual(recs[i - 1]?.recvTs ?? 0);
    // The recording spans the time it ran (~0.5 s: 100 ms before the correction, 400 ms after);
    // holding would have put everything after the correction at one stamp, ~100 ms after the first.
    const span = (recs.at(-1)?.recvTs ?? 0) - (recs[0]?.recvTs ?? 0);
    expect(span).toBeGreaterThanOrEqual(380);
    expect(span).toBeLessThanOrEqual(ended - subscribed + 50);
    expect(recs[0]?.recvTs).toBeGreaterThan(subscribed + 3 * HOUR - 1_000); // stamped by the clock ahead
    // The frames after the correction: bursts 2 and 3 (book deltas and the like), all continued.
    expect(summary.recvTsClamped).toBeGreaterThan(10);
    expect(summary.recvTsClamped).toBeLessThan(recs.length);
    expect(summary.clockStepBackMs).toBeGreaterThan(3 * HOUR - 5_000);
    expect(summary.clockStepBackMs).toBeLessThanOrEqual(3 * HOUR + 1_000);
    const warnings = err
      .join("")
      .split("\n")
      .filter((l) => l.includes("stepped back"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("recvTs continues from the last frame's on the monotonic clock");
    const logged = JSON.parse(warnings[0] ?? "{}") as { stepMs: number };
    expect(logged.stepMs).toBeGreaterThan(3 * HOUR - 5_000);
  }, 30_000);
});
