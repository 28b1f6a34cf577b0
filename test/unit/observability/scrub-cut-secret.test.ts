import { describe, expect, it } from "vitest";
import { expandSecrets, scrub } from "../../../src/observability/logger.js";

const SECRET = "Zk9_vQ2-xR7tLm3NpW8sYc1HdJ6aBe4UgTq5Fo0iKlM";
const KEY = `mm_live_0123456789abcdef_${SECRET}`;
const PK = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
const secrets = expandSecrets([KEY, SECRET, PK]);

// A quote cut short (describeText: 120 characters then "…") can end inside a secret: what is left
// of it is no longer the whole secret, which the scrubber used to look for alone.
describe("a secret cut short by a quote's ellipsis", () => {
  it("is replaced, whichever secret and however much of it is left", () => {
    for (const n of [8, 20, 42]) {
      expect(scrub(`got "<html>${KEY.slice(0, 25 + n)}…"`, secrets)).toBe('got "<html>[REDACTED]…"');
      expect(scrub(`got "${SECRET.slice(0, n)}…"`, secrets)).toBe('got "[REDACTED]…"');
    }
    expect(scrub(`body ${PK.slice(0, 40)}…`, secrets)).toBe("body [REDACTED]…");
    expect(scrub(`body ${PK.slice(2, 40).toUpperCase()}…`, secrets)).toBe("body [REDACTED]…");
  });

  it("is replaced at every ellipsis of the line, whole secrets beside it too", () => {
    const line = `a ${SECRET.slice(0, 30)}… b ${KEY} c ${PK.slice(0, 12)}… d`;
    expect(scrub(line, secrets)).toBe("a [REDACTED]… b [REDACTED] c [REDACTED]… d");
  });

  it("leaves other cut text alone, and a secret's first 7 characters (42 bits of 256)", () => {
    const plain = 'got "<html><head><title>Access denied</title>…" and "Zk9_vQ2…"';
    expect(scrub(plain, secrets)).toBe(plain);
    expect(scrub(`x ${SECRET.slice(1, 30)}…`, secrets)).toBe(`x ${SECRET.slice(1, 30)}…`);
  });
});
