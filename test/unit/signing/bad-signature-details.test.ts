import { describe, expect, it } from "vitest";
import type { Address } from "../../../src/core/types.js";
import { canonicalFields } from "../../../src/mock/http/routes/place-signature.js";
import { diagnoseBadSignature } from "../../../src/signing/bad-signature-details.js";
import { buildOrderStruct } from "../../../src/signing/order-struct.js";
import { MARKET, TEST_VAULT, TEST_WALLET } from "./fixtures.js";

/*
 * A bad_signature reply's details (spec, Diagnostic details): recovered, expected_signer and
 * platform_canonical_struct, "compare field by field". The exchange's struct is the mock's own
 * rendering (canonicalFields: every value a string, addresses lowercase) unless a test says otherwise.
 */

const { struct } = buildOrderStruct({
  market: MARKET,
  side: "buy",
  price: "0.47",
  quantity: "12.5",
  expiry: 0,
  salt: 123_456_789n,
  maker: TEST_WALLET,
  signer: TEST_WALLET,
  signatureType: 0,
  defaultFeeRateBps: 0,
});
const wallet = TEST_WALLET.toLowerCase() as Address;
const SOMEONE = "0x1234567890abcdef1234567890abcdef12345678";

const reply = (
  fields: Record<string, unknown> = canonicalFields(struct),
  over: Record<string, unknown> = {},
) => ({
  recovered: SOMEONE,
  expected_signer: wallet,
  platform_canonical_struct: fields,
  ...over,
});

describe("diagnoseBadSignature: the exchange's rebuilt order against the one signed", () => {
  it("all 11 fields agree: the EIP-712 domain differs", () => {
    expect(diagnoseBadSignature(struct, reply())).toEqual({
      cause: "domain",
      recovered: SOMEONE,
      expectedSigner: wallet,
      unreadable: [],
    });
  });

  it("one field differs: it is named with both values", () => {
    const d = diagnoseBadSignature(struct, reply({ ...canonicalFields(struct), feeRateBps: 150 }));
    expect(d).toMatchObject({
      cause: "fields",
      differing: [{ field: "feeRateBps", signed: "200", exchange: "150" }],
      unreadable: [],
    });
  });

  it("numbers as JSON numbers or 0x strings, side as BUY, addresses checksummed or upper-case: still equal", () => {
    const f = canonicalFields(struct);
    const fields = {
      ...f,
      salt: 123_456_789,
      makerAmount: `0x${struct.makerAmount.toString(16)}`,
      feeRateBps: 200,
      side: "BUY",
      signatureType: 0,
      expiration: "0",
      maker: TEST_WALLET,
      signer: `0x${wallet.slice(2).toUpperCase()}`,
    };
    expect(diagnoseBadSignature(struct, reply(fields))).toMatchObject({ cause: "domain", unreadable: [] });
  });

  it("snake_case field names and a struct sent as a JSON string are read too", () => {
    const f = canonicalFields(struct);
    const snake = {
      ...f,
      token_id: f.tokenId,
      fee_rate_bps: "0",
      tokenId: undefined,
      feeRateBps: undefined,
    };
    const d = diagnoseBadSignature(
      struct,
      reply(undefined, { platform_canonical_struct: JSON.stringify(snake) }),
    );
    expect(d).toMatchObject({
      cause: "fields",
      differing: [{ field: "feeRateBps", signed: "200", exchange: "0" }],
    });
  });

  it("a tokenId as a JSON number beyond 2^53 cannot be compared exactly: unreadable, not different", () => {
    const fields = { ...canonicalFields(struct), tokenId: Number(struct.tokenId) };
    expect(diagnoseBadSignature(struct, reply(fields))).toMatchObject({
      cause: "domain",
      unreadable: ["tokenId"],
    });
  });

  it("a missing field is unreadable; the readable ones still decide", () => {
    const { salt: _salt, ...rest } = canonicalFields(struct);
    const d = diagnoseBadSignature(struct, reply({ ...rest, signatureType: "1" }));
    expect(d).toMatchObject({
      cause: "fields",
      differing: [{ field: "signatureType", signed: "0", exchange: "1" }],
      unreadable: ["salt"],
    });
  });

  it("recovered null: no valid signature at all", () => {
    expect(diagnoseBadSignature(struct, reply(undefined, { recovered: null }))).toMatchObject({
      cause: "signature_invalid",
      recovered: null,
    });
  });

  it("expected_signer another wallet than the signer: the key's wallet is named, whatever the fields", () => {
    const d = diagnoseBadSignature(struct, reply(undefined, { expected_signer: TEST_VAULT }));
    expect(d).toEqual({
      cause: "wallet",
      recovered: SOMEONE,
      expectedSigner: TEST_VAULT.toLowerCase(),
    });
  });

  it("recovered our own wallet with every field equal: unexplained, not the domain", () => {
    expect(diagnoseBadSignature(struct, reply(undefined, { recovered: TEST_WALLET }))).toMatchObject({
      cause: "unexplained",
      recovered: wallet,
    });
  });

  it("malformed details never throw: unreadable", () => {
    const malformed: unknown[] = [
      undefined,
      null,
      "not json",
      42,
      [],
      { platform_canonical_struct: 5 },
      { platform_canonical_struct: [1, 2] },
      { platform_canonical_struct: "{broken" },
      { platform_canonical_struct: { foo: "bar" } },
      {
        platform_canonical_struct: {
          salt: { deep: 1 },
          maker: 7,
          side: true,
          feeRateBps: -1,
          tokenId: "1e3",
        },
      },
      JSON.parse('{"platform_canonical_struct":{"__proto__":{"salt":"1"},"constructor":1}}'),
      { recovered: 17, expected_signer: "0xnot-an-address", platform_canonical_struct: null },
    ];
    for (const details of malformed) {
      expect(diagnoseBadSignature(struct, details)).toMatchObject({ cause: "unreadable" });
    }
  });

  it("an exchange value shown in a difference is cut to 80 characters", () => {
    const padded = `5${" ".repeat(100)}`;
    const d = diagnoseBadSignature(struct, reply({ ...canonicalFields(struct), salt: padded }));
    expect(d).toMatchObject({
      differing: [{ field: "salt", signed: "123456789", exchange: `${padded.slice(0, 80)}…` }],
    });
  });
});
