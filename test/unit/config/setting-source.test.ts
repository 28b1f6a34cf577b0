import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { settingSource } from "../../../src/config/setting-source.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A config file in a fresh folder holding `data`; returns the folder and the file's name in it. */
function file(data: unknown): { dir: string; name: string } {
  const dir = mkdtempSync(join(tmpdir(), "mm-source-"));
  dirs.push(dir);
  writeFileSync(join(dir, "c.json"), JSON.stringify(data));
  return { dir, name: "c.json" };
}

describe("settingSource: where the operator set a setting, worded as the load's issues", () => {
  it("names the variable, which wins over every file", () => {
    const f = file({ metrics: { port: 9000 } });
    expect(settingSource("metrics.port", [f.name], { MM_METRICS_PORT: "9001" }, f.dir)).toBe(
      "from env MM_METRICS_PORT",
    );
  });

  it("else the last --config file setting it, as an absolute path", () => {
    const f = file({ metrics: { port: 9000 } });
    const other = file({ metrics: { host: "127.0.0.1" } });
    const files = [join(f.dir, f.name), join(other.dir, other.name)];
    expect(settingSource("metrics.port", files, {}, other.dir)).toBe(`in ${join(f.dir, f.name)}`);
  });

  it("nothing for a default (config/default.json or the schema's)", () => {
    expect(
      settingSource("metrics.port", [], { MM_METRICS_HOST: "127.0.0.1" }, process.cwd()),
    ).toBeUndefined();
  });
});
