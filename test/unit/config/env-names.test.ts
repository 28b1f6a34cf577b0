import { describe, expect, it } from "vitest";
import { settingEnvNames, TOOLING_ENV, unknownEnvVars } from "../../../src/config/env-names.js";
import { ConfigError } from "../../../src/config/errors.js";
import { loadConfig } from "../../../src/config/load.js";
import { configError } from "./support.js";

/*
 * An MM_* variable naming no setting used to be ignored without a word: MM_SHUTDOWN_TIMEOUT=5000
 * left shutdown.timeoutMs at 10000 while the operator believed it was 5000.
 */

const meant = (name: string): string | null => unknownEnvVars({ [name]: "x" })[0]?.meant ?? null;

describe("unknownEnvVars", () => {
  it("reports nothing for settings' variables, the tooling's variables and non-MM variables", () => {
    const env: Record<string, string> = { PATH: "/bin", HOME: "/home/x", mm_note: "lowercase is not MM_" };
    for (const name of [...settingEnvNames(), ...TOOLING_ENV]) env[name] = "1";
    expect(unknownEnvVars(env)).toEqual([]);
  });

  it("names the setting a typo was meant for", () => {
    expect(meant("MM_EXCHANGE_BASEURL")).toBe("MM_EXCHANGE_BASE_URL"); // underscore missing
    expect(meant("MM_RISC")).toBe("MM_RISK"); // one letter, short name
    expect(meant("MM_APIKEY")).toBe("MM_API_KEY");
    expect(meant("MM_LOG_LEVLE")).toBe("MM_LOG_LEVEL"); // two letters swapped
    expect(meant("MM_METRICS_PROT")).toBe("MM_METRICS_PORT"); // not MM_METRICS_HOST
    expect(meant("MM_log_level")).toBe("MM_LOG_LEVEL"); // case only
  });

  it("names the setting for the same words in another order, a word missing or one more", () => {
    expect(meant("MM_BASE_URL_EXCHANGE")).toBe("MM_EXCHANGE_BASE_URL");
    expect(meant("MM_SHUTDOWN_TIMEOUT")).toBe("MM_SHUTDOWN_TIMEOUT_MS"); // unit suffix missing
    expect(meant("MM_JOURNAL_SNAPSHOT_INTERVAL")).toBe("MM_JOURNAL_SNAPSHOT_INTERVAL_MS");
    expect(meant("MM_METRICS_MAX_LABELS")).toBe("MM_METRICS_MAX_MARKET_LABELS");
    expect(meant("MM_EXCHANGE_API_BASE_URL")).toBe("MM_EXCHANGE_BASE_URL");
    expect(meant("MM_WALLET_PRIVATE_KEY")).toBe("MM_PRIVATE_KEY");
  });

  it("names the JSON setting when a variable tries to set one of its keys", () => {
    expect(meant("MM_RISK_ORDER_MAX_SIZE")).toBe("MM_RISK");
    expect(meant("MM_MARKETS_TICK_SIZES_WILL_IT_RAIN")).toBe("MM_MARKETS_TICK_SIZES");
  });

  it("suggests nothing for a variable far from every setting (another program's, say)", () => {
    expect(meant("MM_SQLSETTINGS_DATASOURCE")).toBeNull();
    expect(meant("MM_SERVICESETTINGS_SITEURL")).toBeNull();
    expect(meant("MM_")).toBeNull();
    expect(meant("MM_LOG_FILE")).toBeNull();
  });

  it("lists the unknown variables sorted by name, skipping unset ones, never reading values", () => {
    const env = { MM_ZZZ: "1", MM_RISC: '{"order":{}}', MM_AAA: "", MM_UNSET: undefined };
    expect(unknownEnvVars(env)).toEqual([
      { name: "MM_AAA", meant: null },
      { name: "MM_RISC", meant: "MM_RISK" },
      { name: "MM_ZZZ", meant: null },
    ]);
  });

  it("no tooling variable is a setting or close to one, so the list cannot hide a typo", () => {
    for (const name of TOOLING_ENV) {
      expect(unknownEnvVars({ [name]: "1" }, [...settingEnvNames(), ...TOOLING_ENV])).toEqual([]);
      expect(settingEnvNames(), name).not.toContain(name);
      expect(unknownEnvVars({ [`${name}X`]: "1" }, settingEnvNames())[0]?.meant ?? null, name).toBeNull();
    }
  });
});

describe("loadConfig and MM_* variables naming no setting", () => {
  it("refuses a near miss of a setting, naming the variable and the setting it meant", () => {
    const err = configError(() =>
      loadConfig({ env: { MM_SHUTDOWN_TIMEOUT: "5000", MM_PRIVATEKEY: "0xsecret-looking-value" } }),
    );
    expect(err.lines()).toEqual([
      expect.stringMatching(/^MM_PRIVATEKEY: names no setting: did you mean MM_PRIVATE_KEY\?/),
      expect.stringMatching(/^MM_SHUTDOWN_TIMEOUT: names no setting: did you mean MM_SHUTDOWN_TIMEOUT_MS\?/),
    ]);
    expect(err.message).not.toContain("secret-looking");
  });

  it("loads with a variable far from every setting (a warning is the CLI's) and with the tooling's", () => {
    const config = loadConfig({ env: { MM_SQLSETTINGS_DATASOURCE: "x", MM_FUZZ_RUNS: "5" } });
    expect(config.shutdown.timeoutMs).toBe(10_000);
  });

  it("reports a near miss together with the other problems", () => {
    const err = configError(() => loadConfig({ env: { MM_LOG_LEVL: "debug", MM_LOG_PRETTY: "maybe" } }));
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.issues.map((i) => i.field).sort()).toEqual(["MM_LOG_LEVL", "log.pretty"]);
  });
});
