import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { SIGN_FAILURE_LOG_EVERY_MS, SignFailures } from "../../../src/engine/sign-failures.js";
import { collectingStream } from "../../support/collecting-stream.js";
import { Harness, type HarnessOptions } from "./support/harness.js";
import { testSign } from "./support/sign.js";

/*
 * A placement whose signing fails sends nothing, yet it is an order attempt that failed: it counts
 * towards the error-rate halt, so a signer that fails every time (a KMS down, a key gone) stops
 * quoting as an exchange refusing every order would. d53cdf0 had stopped counting it (its bound is one
 * error per request), and then such a signer never tripped the halt and logged one error line per
 * placement attempt without end. Counted errors beyond the bound only make the halt easier to reach;
 * at most one per windowMs / (2 × maxErrors) counts (engine-sign-failures-halt.test.ts).
 * The log is one episode: the first failure, at most one line a minute after it with the counts,
 * and `signing works again` when a placement signed after the episode began is answered.
 */

const LINE = "placement not sent: signing failed";

/** A signer broken while `state.broken`, else the tests' signer. */
function breakable() {
  const state = { broken: true };
  const sign: NonNullable<HarnessOptions["sign"]> = (markets) => async (i) => {
    if (state.broken) throw new Error("signer unavailable");
    return testSign(i, markets);
  };
  return { state, sign };
}

const halted = (h: Harness) => h.logs.records().some((r) => r.msg === "risk: error_rate_halt");
const lines = (h: Harness, msg: string) => h.logs.records().filter((r) => r.msg === msg);

describe("engine: a placement whose signing fails", () => {
  it("counts towards the error-rate halt: a signer that fails every time trips it", async () => {
    const { sign } = breakable();
    const risk = { errorRate: { maxErrors: 1, windowMs: 30_000, coolDownMs: 60_000, ignoreCodes: [] } };
    const h = new Harness({ risk, sign });
    const [a] = h.tokens();
    h.crowdQuote(a, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    const failed = h.eventsOf("place_outcome").filter((e) => e.code === "sign_failed");
    expect(failed.length).toBeGreaterThanOrEqual(2); // the bid and the ask
    expect(h.exchange.of("place")).toEqual([]);
    // At most one per windowMs / (2 × maxErrors) = 15 s counts (engine-sign-failures-halt.test.ts).
    expect(halted(h)).toBe(false);
    for (let k = 0; k < 20; k++) {
      h.crowdQuote(a, k % 2 === 0 ? "0.47" : "0.48", k % 2 === 0 ? "0.51" : "0.52");
      await h.run(1_000);
    }
    expect(halted(h)).toBe(true);
    expect(lines(h, LINE)).toHaveLength(1);
  });

  it("is logged once an episode, then at most once a minute, and its end once", async () => {
    const { state, sign } = breakable();
    // A halt out of reach here: the log alone is under test.
    const risk = { errorRate: { maxErrors: 100_000, windowMs: 30_000, coolDownMs: 60_000, ignoreCodes: [] } };
    const h = new Harness({ risk, sign });
    const [a] = h.tokens();
    h.crowdQuote(a, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    // 150 s of a moving book: every move asks for a new bid and ask, and signing fails each time.
    for (let k = 0; k < 150; k++) {
      h.crowdQuote(a, k % 2 === 0 ? "0.47" : "0.48", k % 2 === 0 ? "0.51" : "0.52");
      await h.run(1_000);
    }
    const failed = h.eventsOf("place_outcome").filter((e) => e.code === "sign_failed").length;
    expect(failed).toBeGreaterThan(100);
    const logged = lines(h, LINE);
    expect(logged).toHaveLength(3); // at 0, ~60 s and ~120 s
    expect(logged[1]).toMatchObject({ episodeFailures: expect.any(Number), failures: expect.any(Number) });
    expect(halted(h)).toBe(false);
    state.broken = false;
    h.crowdQuote(a, "0.48", "0.52");
    await h.run(1_000);
    expect(h.exchange.of("place").length).toBeGreaterThan(0);
    expect(lines(h, "signing works again")).toMatchObject([{ failed }]);
  });
});

describe("SignFailures", () => {
  const f = { tokenId: "t", clientOrderId: "c", err: new Error("x") };

  it("logs again at once when the clock stepped back (not a minute of silence longer)", () => {
    const logs = collectingStream();
    const sf = new SignFailures(pino({ level: "debug" }, logs));
    sf.failed(100_000, f);
    sf.failed(100_000 + SIGN_FAILURE_LOG_EVERY_MS - 1, f);
    sf.failed(50_000, f); // stepped back
    expect(logs.records().filter((r) => r.msg === LINE)).toHaveLength(2);
    expect(logs.records()[1]).toMatchObject({ failures: 2, episodeFailures: 3 });
  });
});
