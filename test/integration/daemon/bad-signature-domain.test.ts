import { describe, expect, it } from "vitest";
import { startDaemon } from "../../../src/app/daemon.js";
import {
  daemonConfig,
  daemonSlots,
  market,
  memoryLogger,
  SCENARIO,
  seedMarket,
  startMock,
  waitFor,
} from "./support.js";

/*
 * signing.chainId 137 against the mock (chain 31337, the local-dev default): every placement is
 * refused bad_signature (until the error-rate halt trips), and mm's only reaction was a re-read of the
 * market's fee, which is unchanged. The mock's reply carries platform_canonical_struct (spec,
 * Diagnostic details); compared with the order as signed, all 11 fields agree, so the line names the
 * signing domain's settings and their values: once, not once per refusal.
 */

const ARG = market("arg-vs-fra-final-arg-win");
const slots = daemonSlots();

describe("daemon: signing.chainId wrong for the exchange", () => {
  it("logs once, at error, that the EIP-712 domain differs, naming signing.chainId and signing.exchangeContract", async () => {
    slots.mock = await startMock();
    seedMarket(slots.mock, ARG, "0.50", "0.60");
    const { logger, sink } = memoryLogger();
    slots.daemon = await startDaemon(daemonConfig(slots.mock, [ARG.slug], { MM_SIGNING_CHAIN_ID: "137" }), {
      logger,
    });
    const refused = () =>
      sink.records().filter((r) => r.msg === "placement rejected" && r.code === "bad_signature");
    // The first step's 8 placements (two bands a side, both tokens), every one refused; the
    // error-rate halt follows the fee re-read's requote, 10 s later, which this test need not wait.
    await waitFor(() => refused().length >= 8, 10_000, "8 refusals");
    const records = sink.records();
    const refusals = refused();
    // The mock follows the spec: the 11 fields as it rebuilt them.
    const details = refusals[0]?.details as
      | { platform_canonical_struct?: Record<string, string> }
      | undefined;
    expect(Object.keys(details?.platform_canonical_struct ?? {})).toHaveLength(11);
    const domainLines = records.filter((r) => r.level === 50 && String(r.msg).startsWith("bad_signature"));
    expect(domainLines).toHaveLength(1);
    const line = domainLines[0] ?? {};
    expect(line).toMatchObject({ cause: "domain", marketId: ARG.id, slug: ARG.slug });
    expect(String(line.msg)).toContain("all 11 fields agree");
    expect(String(line.msg)).toContain("signing.chainId (137)");
    expect(String(line.msg)).toContain(`signing.exchangeContract (${SCENARIO.eip712.exchangeContract}`);
    // Not one line of the 11 fields differing, whatever the market's fee re-read found.
    expect(records.some((r) => r.level === 50 && r.cause === "fields")).toBe(false);
  });
});
