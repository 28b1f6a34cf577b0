import { describe, expect, it } from "vitest";
import { splitIds } from "../../../src/gateway/ids.js";
import { recordingFileName } from "../../../src/gateway/record/rotating-writer.js";
import { SubscribeWaiters } from "../../../src/gateway/waiters.js";

describe("splitIds", () => {
  it("checks ids per channel kind, lowercases hex ids and drops duplicates", () => {
    expect(splitIds("token_book", ["12", "12", "0x1", "", "1".repeat(79)])).toEqual({
      valid: ["12"],
      invalid: ["0x1", "", "1".repeat(79)],
    });
    const cond = `0x${"AB".repeat(32)}`;
    expect(splitIds("condition_lifecycle", [cond, "0x12"])).toEqual({
      valid: [cond.toLowerCase()],
      invalid: ["0x12"],
    });
    const vault = `0x${"Cd".repeat(20)}`;
    expect(splitIds("vault_positions", [vault])).toEqual({ valid: [vault.toLowerCase()], invalid: [] });
    expect(splitIds("system", ["platform_status", "other"])).toEqual({
      valid: ["platform_status"],
      invalid: ["other"],
    });
    expect(splitIds("user_fills", ["x"])).toEqual({ valid: [], invalid: ["x"] });
  });
});

describe("SubscribeWaiters", () => {
  it("settles a call once every id is accepted or refused, grouping refusals by code", async () => {
    const w = new SubscribeWaiters();
    const a = w.wait("token_book", ["1", "2", "3"]);
    const b = w.wait("token_book", ["3"]);
    w.accept("token_book", ["1"]);
    w.reject({ channel: "token_book", ids: ["2", "3"], code: "forbidden", message: "no" });
    await expect(a).resolves.toEqual({
      accepted: ["1"],
      rejected: [{ channel: "token_book", ids: ["2", "3"], code: "forbidden", message: "no" }],
    });
    await expect(b).resolves.toEqual({
      accepted: [],
      rejected: [{ channel: "token_book", ids: ["3"], code: "forbidden", message: "no" }],
    });
    await expect(w.wait("token_book", [])).resolves.toEqual({ accepted: [], rejected: [] });
    const c = w.wait("token_ohlc", ["9"]);
    w.failAll(new Error("closed"));
    await expect(c).rejects.toThrow("closed");
  });

  it("stops waiting for ids un-wanted before their verdict (withdrawn); a later verdict is no one's", async () => {
    const w = new SubscribeWaiters();
    const a = w.wait("token_book", ["1", "2"]);
    const wallet = w.wait("user_fills", [""]);
    w.withdraw("token_book", ["2", "7"]); // "7": nobody waits for it
    w.withdraw("user_fills", [""]);
    w.accept("token_book", ["1", "2"]); // "2" arrives after its withdrawal: too late for `a`
    await expect(a).resolves.toEqual({ accepted: ["1"], rejected: [], withdrawn: ["2"] });
    await expect(wallet).resolves.toEqual({ accepted: [], rejected: [], withdrawn: [""] });
    const again = w.wait("token_book", ["2"]);
    w.accept("token_book", ["2"]);
    await expect(again).resolves.toStrictEqual({ accepted: ["2"], rejected: [] });
  });
});

describe("recordingFileName", () => {
  it("names files by UTC start second and sequence", () => {
    expect(recordingFileName("market", Date.parse("2026-11-21T05:33:00.456Z"), 1)).toBe(
      "market-20261121T053300Z-0001.jsonl.gz",
    );
    expect(recordingFileName("market", 0, 12345)).toBe("market-19700101T000000Z-12345.jsonl.gz");
  });
});
