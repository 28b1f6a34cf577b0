import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { describeConfig } from "../../../src/config/describe.js";
import { loadConfig } from "../../../src/config/load.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A config file in a fresh folder holding `data`. */
function file(data: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), "mm-set-by-"));
  dirs.push(dir);
  const path = join(dir, "c.json");
  writeFileSync(path, JSON.stringify(data));
  return path;
}

describe("loadConfig: setBy, where the operator set each setting", () => {
  it("names the variable, which wins over every file, else the last file setting it", () => {
    const a = file({ metrics: { port: 9000, host: "127.0.0.1" } });
    const b = file({ metrics: { port: 9001 } });
    const config = loadConfig({ files: [a, b], env: { MM_METRICS_PORT: "9002" } });
    expect(config.setBy["metrics.port"]).toBe("from env MM_METRICS_PORT");
    expect(config.setBy["metrics.host"]).toBe(`in ${a}`);
    expect(loadConfig({ files: [a, b], env: {} }).setBy["metrics.port"]).toBe(`in ${b}`);
  });

  it("leaves out the defaults (config/default.json's, the schema's), and `mm config` shows none of it", () => {
    const config = loadConfig({ env: {} });
    expect(config.setBy["metrics.port"]).toBeUndefined();
    expect(config.setBy["shutdown.timeoutMs"]).toBeUndefined();
    expect(Object.keys(describeConfig(config))).not.toContain("setBy");
  });
});
