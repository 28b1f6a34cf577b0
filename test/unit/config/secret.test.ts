import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { REDACTED, Secret } from "../../../src/config/secret.js";

describe("Secret", () => {
  const raw = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
  const s = new Secret(raw);

  it("reveals the value only on request", () => {
    expect(s.reveal()).toBe(raw);
  });

  it("prints [REDACTED] however it is turned into text", () => {
    expect(String(s)).toBe(REDACTED);
    expect(`${s}`).toBe(REDACTED);
    expect(JSON.stringify({ s })).toBe(`{"s":"${REDACTED}"}`);
    expect(inspect(s)).toBe(REDACTED);
    expect(inspect({ nested: { s } }, { depth: 5 })).not.toContain(raw);
  });

  it("exposes nothing through keys, spreading or structured cloning", () => {
    expect(Object.keys(s)).toEqual([]);
    expect(JSON.stringify({ ...s })).toBe("{}");
    expect(JSON.stringify(structuredClone(s))).toBe("{}");
  });
});
