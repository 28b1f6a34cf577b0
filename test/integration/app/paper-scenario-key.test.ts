import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startPaperExchange } from "../../../src/app/paper.js";
import { main } from "../../../src/cli/main.js";
import { ConfigError } from "../../../src/config/errors.js";
import type { ApiKeyScenario, Scenario } from "../../../src/mock/scenario/types.js";
import { createLogger } from "../../../src/observability/logger.js";
import { tempDirPerTest } from "../../unit/config/support.js";
import { API_KEY, SCENARIO, WALLET } from "../daemon/support.js";
import { apiKeyOf, partner, placeAsPaperBot, scenarioWith } from "./paper-support.js";

/**
 * Paper mode signs as the scenario's first wallet, so its API key must be one the mock maps to
 * that wallet: an active single_wallet partner associated with it, a live key with orders:write
 * that the mock accepts from 127.0.0.1. A --scenario whose first writing key is some other key
 * must not give a bot whose key and signer disagree with the mock.
 */
const OTHER_WALLET = SCENARIO.wallets[1]?.address.toLowerCase() as `0x${string}`;
const silent = createLogger({ level: "silent" });

const tmp = tempDirPerTest();

const start = (scenario: Scenario) =>
  startPaperExchange({ env: {}, cwd: tmp.dir, port: 0, flow: false, logger: silent, scenario });

const cases: [string, Scenario][] = [
  ["a multi_wallet partner's key", scenarioWith([], [apiKeyOf("partner-multi-kyc")])],
  [
    "the key of another wallet's partner",
    scenarioWith([partner("partner-other", { associatedWallet: OTHER_WALLET })], [apiKeyOf("partner-other")]),
  ],
  [
    "the key of a suspended partner of the paper wallet",
    scenarioWith(
      [partner("partner-mm-suspended", { associatedWallet: WALLET, status: "suspended" })],
      [apiKeyOf("partner-mm-suspended")],
    ),
  ],
  [
    "an expired key of the paper wallet's partner",
    scenarioWith([], [apiKeyOf("partner-mm", { expiresAt: "2020-01-01T00:00:00.000Z" })]),
  ],
  [
    "a key of the paper wallet's partner allowed from another IP only",
    scenarioWith([], [apiKeyOf("partner-mm", { ipAllowlist: ["10.11.12.13"] })]),
  ],
];

describe("paper mode's API key", () => {
  it.each(cases)("skips %s listed first and trades with the paper wallet's key", async (_, scenario) => {
    const paper = await start(scenario);
    try {
      expect(paper.config.secrets.apiKey?.value.reveal()).toBe(API_KEY);
      const out = await placeAsPaperBot(paper.config, "arg-vs-fra-final-arg-win");
      expect(out.kind).toBe("accepted");
      expect(paper.mock.context.venue.openOrders(paper.wallet)).toHaveLength(1);
    } finally {
      await paper.mock.close();
    }
  });

  it("is a ConfigError on `scenario` saying what is missing when no key fits", async () => {
    const writes = (k: ApiKeyScenario) => k.scopes.includes("orders:write");
    // The paper wallet's partner keeps only its read-only keys; writing keys of other partners stay.
    const scenario = scenarioWith(
      [partner("partner-other", { associatedWallet: OTHER_WALLET })],
      [apiKeyOf("partner-other"), apiKeyOf("partner-mm", { revoked: true })],
      (k) => k.partnerId !== "partner-mm" || !writes(k),
    );
    const err = await start(scenario).then(
      async (p) => {
        await p.mock.close();
        throw new Error("paper started without a usable key");
      },
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ConfigError);
    const issues = (err as ConfigError).issues;
    expect(issues.map((i) => i.field)).toEqual(["scenario"]);
    expect(issues[0]?.message).toContain(WALLET);
    expect(issues[0]?.message).toContain("orders:write");
    expect(issues[0]?.message).toContain("single_wallet");
    // Why the writing keys it saw do not fit, by index (never the key itself).
    expect(issues[0]?.message).toContain(
      "apiKeys[0]: partner partner-other is associated with another wallet",
    );
    expect(issues[0]?.message).toContain("apiKeys[1]: revoked");
    for (const k of scenario.apiKeys) expect(issues[0]?.message).not.toContain(k.key);
  });

  it("makes mm paper exit 2 naming `scenario` (not an exchange error, exit 1)", async () => {
    const scenario = scenarioWith([], [], (k) => k.partnerId !== "partner-mm");
    const file = join(tmp.dir, "scenario.json");
    writeFileSync(file, JSON.stringify(scenario));
    let stderr = "";
    const code = await main(["paper", "--scenario", file, "--port", "0", "--no-flow"], {
      stdout: () => undefined,
      stderr: (t) => {
        stderr += t;
      },
      env: { MM_METRICS_PORT: "0", MM_LOG_PRETTY: "false", MM_LOG_LEVEL: "silent" },
      cwd: tmp.dir,
    });
    expect(stderr).toContain("config error: scenario: paper mode needs an API key with orders:write");
    expect(code).toBe(2);
  });
});
