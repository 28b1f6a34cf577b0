import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { SignFailures } from "../../../src/engine/sign-failures.js";
import { collectingStream } from "../../support/collecting-stream.js";
import { Harness, type HarnessOptions } from "./support/harness.js";
import { testSign } from "./support/sign.js";

/*
 * A signing-failure episode ends only on the answer of a placement signed after it began. A
 * placement signed before the signer broke but answered after its first failure (it was in flight)
 * says nothing of the signer: ending the episode on it (0eb2275) logged `signing works again` during
 * a KMS outage, and the next failure opened a new episode with another error line — once per
 * placement in flight when the outage started.
 */

const LINE = "placement not sent: signing failed";
const WORKS = "signing works again";

describe("engine: signing failures while placements are in flight", () => {
  it("does not log `signing works again` for a placement signed before the episode began", async () => {
    // The signer signs the first two placements (of four: YES's and NO's bid and ask), then breaks for good.
    let signed = 0;
    const sign: NonNullable<HarnessOptions["sign"]> = (markets) => async (i) => {
      if (signed >= 2) throw new Error("signer unavailable");
      signed++;
      return testSign(i, markets);
    };
    const risk = { errorRate: { maxErrors: 100_000, windowMs: 30_000, coolDownMs: 60_000, ignoreCodes: [] } };
    // Answers take 200 ms: the two signed are still in flight when the others fail to sign.
    const h = new Harness({ risk, sign, latencyMs: 200 });
    const [yes, no] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    h.crowdQuote(no, "0.48", "0.52");
    const starting = h.engine.start();
    await h.run(1_000);
    await starting;
    await h.run(1_000);
    const failed = h.eventsOf("place_outcome").filter((e) => e.code === "sign_failed");
    expect(failed.length).toBeGreaterThanOrEqual(1);
    expect(h.exchange.of("place").length).toBe(2); // the two signed before the outage
    expect(h.eventsOf("place_outcome").filter((e) => e.outcome === "accepted")).toHaveLength(2);
    // The first failure opened the episode; nothing has been signed since.
    const records = h.logs.records();
    const firstErrAt = records.findIndex((r) => r.msg === LINE);
    const worksAgain = records.findIndex((r, k) => k > firstErrAt && r.msg === WORKS);
    expect(worksAgain, "signing works again logged while the signer is still broken").toBe(-1);
    expect(records.filter((r) => r.msg === LINE)).toHaveLength(1);
  });
});

describe("SignFailures.signed", () => {
  const f = { tokenId: "t", clientOrderId: "c", err: new Error("x") };
  const setup = () => {
    const logs = collectingStream();
    const sf = new SignFailures(pino({ level: "debug" }, logs));
    return { sf, works: () => logs.records().filter((r) => r.msg === WORKS) };
  };

  it("ends the episode on a placement signed after it began, not at or before", () => {
    const { sf, works } = setup();
    sf.failed(100_000, f);
    sf.signed(99_990, 100_200); // in flight when the signer broke
    sf.signed(100_000, 100_200); // the same millisecond: which came first is unknown
    expect(works()).toHaveLength(0);
    sf.signed(100_001, 100_300);
    expect(works()).toMatchObject([{ failed: 1, durationMs: 300 }]);
  });

  it("a clock stepped back moves the episode's start with it: a placement signed after still ends it", () => {
    const { sf, works } = setup();
    sf.failed(1_000_000, f);
    // NTP steps the clock back 10 minutes; the signer still fails once, then signs again.
    sf.failed(400_000, f);
    sf.signed(400_100, 400_200);
    expect(works()).toMatchObject([{ failed: 2, durationMs: 200 }]);
  });
});
