import { describe, expect, it } from "vitest";
import { hasCode, MmError, ValidationError } from "../../../src/core/errors.js";

describe("MmError", () => {
  it("carries a stable code, details and cause, and serialises them", () => {
    const cause = new Error("root");
    const err = new ValidationError("off_tick", "price off tick", { price: "0.123" }, { cause });
    expect(err).toBeInstanceOf(MmError);
    expect(err.name).toBe("ValidationError");
    expect(err.code).toBe("off_tick");
    expect(err.cause).toBe(cause);
    expect(JSON.parse(JSON.stringify(err))).toEqual({
      name: "ValidationError",
      code: "off_tick",
      message: "price off tick",
      details: { price: "0.123" },
    });
    expect(hasCode(err, "off_tick")).toBe(true);
    expect(hasCode(err, "other")).toBe(false);
    expect(hasCode(new Error("x"), "off_tick")).toBe(false);
  });
});
