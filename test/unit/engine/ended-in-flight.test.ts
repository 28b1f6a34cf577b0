import { describe, expect, it } from "vitest";
import { EndedInFlight } from "../../../src/engine/ended-in-flight.js";
import type { PlaceIntent } from "../../../src/execution/intents.js";
import type { QueueReport } from "../../../src/execution/order-queue-types.js";
import type { TrackedOrder } from "../../../src/execution/order-state.js";

const order = (state: TrackedOrder["state"], queued: boolean): TrackedOrder =>
  ({ clientOrderId: "c1", state, queued }) as TrackedOrder;
const intent = { kind: "place", clientOrderId: "c1" } as PlaceIntent;
const dropped: QueueReport = { kind: "place_dropped", intent, reason: "superseded" };
const answer = { kind: "place", intent } as QueueReport;

describe("EndedInFlight", () => {
  it("notes only a sent, unanswered placement, and its answer asks for a reconcile only when it left it open", () => {
    const e = new EndedInFlight();
    e.note(order("placing", true)); // still queued: it was never sent, so no push can name it
    e.note(order("open", false));
    expect(e.size).toBe(0);
    e.note(order("placing", false));
    expect(e.answered(answer, () => order("rejected", false))).toBe(false);
    expect(e.size).toBe(0);
    e.note(order("placing", false));
    expect(e.answered(dropped, () => order("cancelled", false))).toBe(false);
    expect(e.size).toBe(0);
    e.note(order("placing", false));
    expect(e.answered(answer, () => order("open", false))).toBe(true);
    expect(e.answered(answer, () => order("open", false))).toBe(false); // once
  });
});
