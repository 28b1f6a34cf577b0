import { describe, expect, it } from "vitest";
import { parseApiKey } from "../../../src/core/api-key.js";
import { makeApiKey } from "../config/support.js";

const KEY_ID = "0123456789abcdef";
const SECRET = Buffer.alloc(32, 0x5a).toString("base64url");
// 30 bytes of fb ef be encode to "-" and 2 bytes of ff to "_": a real secret may hold both separators.
const SECRET_WITH_SEPARATORS = Buffer.from(`${"fbefbe".repeat(10)}ffff`, "hex").toString("base64url");

describe("parseApiKey", () => {
  it("accepts <svc>_<env>_<keyId>_<secret> for env live and test", () => {
    for (const env of ["live", "test"] as const) {
      const { key, keyId, secret } = makeApiKey(env);
      expect(parseApiKey(key)).toEqual({ ok: true, parts: { svc: "mm", env, keyId, secret } });
    }
  });

  it("accepts a secret that itself contains _ and -", () => {
    expect(SECRET_WITH_SEPARATORS).toMatch(/_/);
    expect(SECRET_WITH_SEPARATORS).toMatch(/-/);
    const parsed = parseApiKey(`ipx_live_${KEY_ID}_${SECRET_WITH_SEPARATORS}`);
    expect(parsed).toEqual({
      ok: true,
      parts: { svc: "ipx", env: "live", keyId: KEY_ID, secret: SECRET_WITH_SEPARATORS },
    });
  });

  it("accepts 100 random keys", () => {
    for (let i = 0; i < 100; i++) expect(parseApiKey(makeApiKey().key).ok).toBe(true);
  });

  it.each([
    ["too few parts", `mm_live_${KEY_ID}`, "separators"],
    ["no separators", "justonelongstring", "separators"],
    ["empty svc", `_live_${KEY_ID}_${SECRET}`, "<svc>"],
    ["svc with a space", `m m_live_${KEY_ID}_${SECRET}`, "<svc>"],
    ["env prod", `mm_prod_${KEY_ID}_${SECRET}`, "<env>"],
    ["env LIVE (case)", `mm_LIVE_${KEY_ID}_${SECRET}`, "<env>"],
    ["keyId 15 hex", `mm_live_${KEY_ID.slice(1)}_${SECRET}`, "<keyId>"],
    ["keyId 17 hex", `mm_live_${KEY_ID}0_${SECRET}`, "<keyId>"],
    ["keyId not hex", `mm_live_0123456789abcdeg_${SECRET}`, "<keyId>"],
    ["secret 42 chars", `mm_live_${KEY_ID}_${SECRET.slice(1)}`, "43 base64url"],
    ["secret 44 chars", `mm_live_${KEY_ID}_${SECRET}A`, "43 base64url"],
    ["secret with + (base64, not base64url)", `mm_live_${KEY_ID}_+${SECRET.slice(1)}`, "43 base64url"],
    ["secret with padding", `mm_live_${KEY_ID}_${SECRET.slice(0, 42)}=`, "43 base64url"],
    ["secret with a space", `mm_live_${KEY_ID}_ ${SECRET.slice(1)}`, "43 base64url"],
    ["secret not a 32-byte encoding", `mm_live_${KEY_ID}_${SECRET.slice(0, 42)}B`, "32 bytes"],
  ])("refuses %s", (_name, key, reason) => {
    const parsed = parseApiKey(key);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.reason).toContain(reason);
    expect(parsed.reason).toMatch(/^must have the shape <svc>_<env>_<keyId>_<secret>/);
    // The reason never quotes the key or any part of it.
    expect(parsed.reason).not.toContain(KEY_ID);
    expect(parsed.reason).not.toContain(SECRET.slice(0, 10));
  });
});
