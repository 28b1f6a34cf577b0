import { describe, expect, it } from "vitest";
import { startPaperExchange } from "../../../src/app/paper.js";
import type { Scenario } from "../../../src/mock/scenario/types.js";
import { createLogger } from "../../../src/observability/logger.js";
import { tempDirPerTest } from "../../unit/config/support.js";
import { SCENARIO } from "../daemon/support.js";
import { placeAsPaperBot } from "./paper-support.js";

/**
 * A live configuration layered over paper as it is: its signing.defaultFeeRateBps (the live
 * platform's default) must not reach the paper bot's signatures, which the mock checks against its
 * own default for a market whose feeTakerBps is null.
 */
const NULL_FEE = SCENARIO.markets.find((m) => m.feeTakerBps === null && m.status === "OPEN");
const silent = createLogger({ level: "silent" });

const tmp = tempDirPerTest();

async function placeWith(files: string[], env: NodeJS.ProcessEnv, scenario: Scenario = SCENARIO) {
  const paper = await startPaperExchange({
    files,
    env,
    cwd: tmp.dir,
    port: 0,
    flow: false,
    logger: silent,
    scenario,
  });
  try {
    return {
      config: paper.config,
      out: await placeAsPaperBot(paper.config, NULL_FEE?.slug ?? ""),
      open: paper.mock.context.venue.openOrders(paper.wallet).length,
    };
  } finally {
    await paper.mock.close();
  }
}

describe("paper mode under a live config with a non-zero signing.defaultFeeRateBps", () => {
  it("the default scenario has an open market with a null feeTakerBps", () => {
    expect(NULL_FEE).toBeDefined();
  });

  it("places orders the mock accepts on that market (file setting)", async () => {
    const live = tmp.file("live.json", { signing: { defaultFeeRateBps: 50 } });
    const { config, out, open } = await placeWith([live], {});
    expect(out.kind === "rejected" ? out.code : out.kind).toBe("accepted");
    expect(open).toBe(1);
    expect(config.signing.defaultFeeRateBps).toBe(0);
  });

  it("places orders the mock accepts on that market (env setting)", async () => {
    const { out } = await placeWith([], { MM_SIGNING_DEFAULT_FEE_RATE_BPS: "75" });
    expect(out.kind === "rejected" ? out.code : out.kind).toBe("accepted");
  });
});
