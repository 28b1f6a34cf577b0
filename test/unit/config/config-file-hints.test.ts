import { describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/config/load.js";
import { configError, tempDirPerTest } from "./support.js";

/*
 * A newcomer's config file mistakes: a key typed wrong, or written in snake_case (Hummingbot's YAML
 * habit: `base_url`, `request_timeout_ms`), was refused as "unknown setting" without naming the
 * setting meant, which MM_* variables get ("did you mean …?"); a trailing comma in a 40-line file
 * was "is not valid JSON" without saying where.
 */
const tmp = tempDirPerTest();

describe("config file: mistakes name the way out", () => {
  it("an unknown key close to a setting of its group names that setting", () => {
    const a = tmp.file("a.json", {
      exchange: { base_url: "http://127.0.0.1:1", requestTimeotMs: 5000, Request_Timeout_Ms: 1 },
      log: { levl: "debug" },
      enigne: {},
      extra: { x: 1 },
    });
    const e = configError(() => loadConfig({ files: [a], env: {} }));
    expect(e.lines()).toEqual([
      `exchange.base_url: unknown setting (in ${a}): did you mean exchange.baseUrl?`,
      `exchange.requestTimeotMs: unknown setting (in ${a}): did you mean exchange.requestTimeoutMs?`,
      `exchange.Request_Timeout_Ms: unknown setting (in ${a}): did you mean exchange.requestTimeoutMs?`,
      `log.levl: unknown setting (in ${a}): did you mean log.level?`,
      `enigne: unknown setting (in ${a}): did you mean engine?`,
      `extra: unknown setting (in ${a})`,
    ]);
  });

  it("a file that does not parse names the line and column, never its text", () => {
    const text = '{\n  "exchange": {\n    "baseUrl": "http://127.0.0.1:8080",\n  }\n}\n';
    const a = tmp.file("a.json", text);
    const e = configError(() => loadConfig({ files: [a], env: {} }));
    expect(e.lines()).toEqual([
      `${a}: is not valid JSON at line 4, column 3 (JSON has no comments and no trailing commas)`,
    ]);
  });

  it("a file cut short says so", () => {
    const a = tmp.file("a.json", '{\n  "exchange": {\n    "baseUrl": "http://127.0.0.1:8080"\n');
    const e = configError(() => loadConfig({ files: [a], env: {} }));
    expect(e.lines()).toEqual([
      `${a}: is not valid JSON: it ends before it is complete (a missing bracket or quote?)`,
    ]);
  });
});
