import { describe, expect, it } from "vitest";
import {
  parseErrorReply,
  parsePong,
  refusedGroups,
  type SubscribeRejection,
} from "../../../src/gateway/replies.js";

const rej = (ids: string[], code: string, channel = "token_book"): SubscribeRejection => ({
  channel,
  ids,
  code,
  message: code,
});
const same = (id: string) => id;
const NOT = { code: "not_accepted", message: "unlisted" };

describe("refusedGroups: the verdict on ids a subscribe did not accept", () => {
  it("ids a rejected entry names take its code (a partial accept); the others the fallback", () => {
    const rejected = [rej(["2", "4"], "forbidden"), rej(["3"], "subscription_cap_exceeded")];
    expect(refusedGroups(["1", "2", "3", "4"], rejected, "token_book", NOT, same)).toEqual([
      { ids: ["2", "4"], code: "forbidden", message: "forbidden" },
      { ids: ["3"], code: "subscription_cap_exceeded", message: "subscription_cap_exceeded" },
      { ids: ["1"], code: "not_accepted", message: "unlisted" },
    ]);
  });

  it("a rejected entry of another channel says nothing about these ids", () => {
    expect(refusedGroups(["1"], [rej(["1"], "forbidden", "token_ohlc")], "token_book", NOT, same)).toEqual([
      { ids: ["1"], code: "not_accepted", message: "unlisted" },
    ]);
  });

  it("compares ids as the server spells them (vault addresses lowercased)", () => {
    const lower = (id: string) => id.toLowerCase();
    const out = refusedGroups(
      ["0xABC"],
      [rej(["0xabc"], "forbidden", "vault_positions")],
      "vault_positions",
      NOT,
      lower,
    );
    expect(out).toEqual([{ ids: ["0xABC"], code: "forbidden", message: "forbidden" }]);
  });

  it("no ids, no groups", () => {
    expect(refusedGroups([], [rej(["1"], "forbidden")], "token_book", NOT, same)).toEqual([]);
  });
});

describe("parsePong", () => {
  it("reads serverTs at the top level or under data (the spec shows no pong payload)", () => {
    expect(parsePong({ type: "pong", serverTs: 5 })).toEqual({ serverTs: 5 });
    expect(parsePong({ type: "pong", data: { serverTs: 6 } })).toEqual({ serverTs: 6 });
    expect(parsePong({ type: "pong", data: { serverTs: "6" } })).toEqual({ serverTs: undefined });
    expect(parsePong({ type: "pong" })).toEqual({ serverTs: undefined });
  });
});

describe("parseErrorReply: an error reply's code, at the top level or nested", () => {
  it("reads a top-level code and message (the mock's shape)", () => {
    expect(parseErrorReply({ type: "error", code: "forbidden", message: "no" })).toEqual({
      code: "forbidden",
      message: "no",
    });
  });

  it("reads a code nested under `error` (the HTTP nested envelope's shape)", () => {
    expect(
      parseErrorReply({ type: "error", error: { code: "invalid_params", message: "bad", trace_id: "t" } }),
    ).toEqual({ code: "invalid_params", message: "bad" });
  });

  it("the top level wins; the message comes from where the code was", () => {
    expect(
      parseErrorReply({
        type: "error",
        code: "forbidden",
        message: "top",
        error: { code: "x", message: "in" },
      }),
    ).toEqual({ code: "forbidden", message: "top" });
    expect(parseErrorReply({ type: "error", code: "", message: "top", error: { code: "x" } })).toEqual({
      code: "x",
      message: "",
    });
  });

  it("no code in either place is command_failed (retried), keeping any message", () => {
    expect(parseErrorReply({ type: "error", error: { message: "oops" } })).toEqual({
      code: "command_failed",
      message: "oops",
    });
    expect(parseErrorReply({ type: "error", error: "forbidden", code: 7 })).toEqual({
      code: "command_failed",
      message: "",
    });
  });
});
