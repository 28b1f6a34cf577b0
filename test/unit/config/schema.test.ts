import convict from "convict";
import { describe, expect, it } from "vitest";
import { renderSettingsTable } from "../../../src/config/docs.js";
import { checkFormat, FORMATS, registerFormats } from "../../../src/config/formats.js";
import { type RawConfig, schema, settings } from "../../../src/config/schema.js";

describe("schema", () => {
  const all = settings();

  it("documents every setting with a doc, a known format, a default and a unique MM_* env var", () => {
    expect(all.length).toBeGreaterThanOrEqual(30);
    const envs = new Set<string>();
    for (const { path, spec } of all) {
      expect(spec.doc.length, path).toBeGreaterThan(10);
      expect(spec.doc.endsWith("."), `${path} doc ends with a full stop`).toBe(true);
      if (typeof spec.format === "string") expect(Object.keys(FORMATS), path).toContain(spec.format);
      else expect(spec.format.length, path).toBeGreaterThan(1);
      expect(spec.env, path).toMatch(/^MM_[A-Z0-9_]+$/);
      expect(envs.has(spec.env), `${spec.env} used twice`).toBe(false);
      envs.add(spec.env);
    }
  });

  it("has defaults that pass their own formats", () => {
    for (const { path, spec } of all) {
      expect(() => checkFormat(spec.format, spec.default, spec), path).not.toThrow();
    }
  });

  it("marks exactly the two secret values sensitive and env-only", () => {
    const secret = all
      .filter(({ spec }) => spec.sensitive === true)
      .map(({ path, spec }) => [path, spec.env]);
    expect(secret).toEqual([
      ["secrets.apiKey", "MM_API_KEY"],
      ["secrets.privateKey", "MM_PRIVATE_KEY"],
    ]);
    expect(all.filter(({ spec }) => spec.envOnly === true)).toHaveLength(2);
  });

  it("registers its formats with convict, whose own strict validation then uses them", () => {
    registerFormats();
    const conf = convict<RawConfig>(schema, { env: { MM_SIGNING_SIGNATURE_TYPE: "256" }, args: [] });
    expect(() => conf.validate({ allowed: "strict", output: () => undefined })).toThrow(
      /signing\.signatureType: must be ≤ 255, got 256/,
    );
    const ok = convict<RawConfig>(schema, { env: { MM_SIGNING_SIGNATURE_TYPE: "2" }, args: [] });
    expect(() => ok.validate({ allowed: "strict" })).not.toThrow();
    expect(ok.get("signing.signatureType")).toBe(2);
  });

  it("hides the secret settings in convict's own printout", () => {
    registerFormats();
    const conf = convict<RawConfig>(schema, {
      env: { MM_API_KEY: "mm_live_x", MM_PRIVATE_KEY: "0xabc" },
      args: [],
    });
    expect(conf.toString()).not.toContain("mm_live_x");
    expect(conf.toString()).not.toContain("0xabc");
  });
});

describe("renderSettingsTable", () => {
  it("renders one Markdown row per setting: setting | env | default | doc", () => {
    const lines = renderSettingsTable().split("\n");
    expect(lines[0]).toBe("| setting | env | default | doc |");
    expect(lines[1]).toBe("|---|---|---|---|");
    expect(lines).toHaveLength(settings().length + 2);
    expect(lines).toContain(
      "| `retry.baseDelayMs` | `MM_RETRY_BASE_DELAY_MS` | `200` | First back-off delay for a retryable failure of an idempotent call, in ms; doubles per attempt, with jitter. *(integer)* |",
    );
    expect(lines.find((l) => l.startsWith("| `exchange.partnerKind`"))).toContain(
      "*(single_wallet \\| multi_wallet)*",
    );
    expect(lines.find((l) => l.startsWith("| `secrets.apiKey`"))).toContain("| `MM_API_KEY` | (none) |");
    // Every row has exactly four cells: no unescaped pipe inside a doc.
    for (const line of lines) expect(line.replace(/\\\|/g, "").split("|")).toHaveLength(6);
  });
});
