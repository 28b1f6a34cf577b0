import { describe, expect, it } from "vitest";
import { configCommand } from "../../../src/cli/config.js";
import { tempDirPerTest } from "../config/support.js";

/**
 * Review 16 (config): `mm config` "prints the effective settings" / "shows what is in force"
 * (README), but for `risk` set by MM_RISK it prints the variable's partial tree. MM_RISK replaces
 * the whole risk tree and the limits it omits take their DEFAULTS (README), so a file's tighter
 * kill switch silently goes back to 500 USDC — exactly what an operator runs `mm config` to see,
 * and it shows no killSwitch at all. The daemon parses the same tree with parseRiskConfig, which
 * fills the defaults.
 */
describe("review16 config: mm config shows the risk limits in force", () => {
  const tmp = tempDirPerTest();

  it("MM_RISK with only order.maxSize: mm config shows the kill switch and caps that apply", async () => {
    const file = tmp.file("live.json", { risk: { killSwitch: { maxDrawdown: "100" } } });
    const out: string[] = [];
    const io = {
      stdout: (t: string) => out.push(t),
      stderr: () => undefined,
      env: { MM_RISK: '{"order":{"maxSize":"5"}}' },
      cwd: tmp.dir,
    };
    expect(await configCommand.run(["--config", file], io)).toBe(0);
    const risk = JSON.parse(out.join("")).risk;
    expect(risk.order.maxSize).toBe("5");
    // In force (parseRiskConfig of MM_RISK): the default 500, not the file's 100, and not absent.
    expect(risk.killSwitch?.maxDrawdown).toBe("500");
    expect(risk.inventory?.perMarket?.hard).toBe("2000");
    expect(risk.order.maxNotional).toBe("250");
  });
});
