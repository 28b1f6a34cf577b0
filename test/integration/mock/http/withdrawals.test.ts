import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ExchangeError } from "../../../../src/exchange/exchange-error.js";
import { defaultScenarioPath, loadScenario } from "../../../../src/mock/scenario/load.js";
import { vaultOf } from "../../../../src/mock/vault.js";
import { MockHarness, WALLET } from "./harness.js";

/** Withdrawals: request, list, detail, cancel; the spec's states and errors. */

let h: MockHarness;
beforeAll(async () => {
  // The default scenario gives vault:write only to partner-mm; the multi_wallet KYC partner gets it
  // here so another wallet can try to cancel partner-mm's withdrawal.
  const scenario = loadScenario(defaultScenarioPath());
  const apiKeys = scenario.apiKeys.map((k, i) =>
    i === 2 ? { ...k, scopes: [...k.scopes, "vault:write" as const] } : k,
  );
  h = await MockHarness.start({ ...scenario, apiKeys });
});
afterAll(() => h.close());

const SIG = `0x${"1c".repeat(65)}`;
const DEST = "0x1111111111111111111111111111111111111111";
const mm = () => h.client();
const step = () => h.scenario.timing.settlementDelayMs;

async function failure(p: Promise<unknown>): Promise<ExchangeError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ExchangeError) return err;
    throw err;
  }
  throw new Error("expected the call to fail");
}

describe("withdrawals", () => {
  it("a request is created PENDING (201), debits the USDC, and moves forward to CONFIRMED with a txHash", async () => {
    const before = Number((await mm().me.balances()).available);
    const { withdrawal, code } = await mm().withdrawals.request({
      amount: "250.5",
      destination: DEST,
      signature: SIG,
    });
    expect(code).toBeUndefined();
    expect(withdrawal).toMatchObject({
      userWallet: WALLET.mm,
      amount: "250.5",
      destination: DEST,
      status: "PENDING",
    });
    expect(withdrawal.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(before - Number((await mm().me.balances()).available)).toBeCloseTo(250.5, 9);
    h.clock.advanceBy(step());
    expect((await mm().withdrawals.get(withdrawal.id)).status).toBe("CO_SIGNED");
    h.clock.advanceBy(step());
    const submitted = await mm().withdrawals.get(withdrawal.id);
    expect(submitted).toMatchObject({
      status: "SUBMITTED",
      txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });
    const cancel = await failure(mm().withdrawals.cancel(withdrawal.id));
    expect([cancel.code, cancel.httpStatus]).toEqual(["invalid_state", 409]);
    h.clock.advanceBy(step());
    expect((await mm().withdrawals.get(withdrawal.id)).status).toBe("CONFIRMED");
  });

  it("a PENDING withdrawal cancels, with a reason, and the USDC comes back", async () => {
    const before = (await mm().me.balances()).available;
    const { withdrawal } = await mm().withdrawals.request({
      amount: "10",
      destination: DEST,
      signature: SIG,
    });
    const cancelled = await mm().withdrawals.cancel(withdrawal.id);
    expect(cancelled).toMatchObject({ id: withdrawal.id, status: "CANCELLED", reason: "user_cancelled" });
    expect((await mm().me.balances()).available).toBe(before);
  });

  it("another wallet's id, or an unknown one, is 404 withdrawal_not_found on detail and cancel", async () => {
    const { withdrawal } = await mm().withdrawals.request({ amount: "1", destination: DEST, signature: SIG });
    const other = h.client({ key: h.keys.multiKyc, wallet: WALLET.kyc });
    for (const call of [
      other.withdrawals.get(withdrawal.id),
      other.withdrawals.cancel(withdrawal.id),
      mm().withdrawals.get("nope"),
    ]) {
      const err = await failure(call);
      expect([err.code, err.httpStatus]).toEqual(["withdrawal_not_found", 404]);
    }
  });

  it.each(["0", "-5", "abc", ""])("amount %j is 400 invalid_amount", async (amount) => {
    const err = await failure(mm().withdrawals.request({ amount, destination: DEST, signature: SIG }));
    expect([err.code, err.httpStatus]).toEqual(["invalid_amount", 400]);
  });

  it("business rejects come in a 200 body: wallet_banned (banned destination), insufficient_funds", async () => {
    for (const destination of [WALLET.banned, vaultOf(WALLET.banned)]) {
      const res = await h.fetch("/api/withdrawals/request", {
        key: h.keys.trader,
        body: { amount: "1", destination, signature: SIG },
      });
      expect([res.status, res.body.code]).toEqual([200, "wallet_banned"]);
    }
    const err = await failure(
      mm().withdrawals.request({ amount: "99999999", destination: DEST, signature: SIG }),
    );
    expect([err.code, err.httpStatus, err.outcome]).toEqual(["insufficient_funds", 200, "rejected"]);
  });

  it("a new destination at or above 10,000 USDC goes to MLRO_REVIEW with code new_destination_edd", async () => {
    const fresh = "0x2222222222222222222222222222222222222222";
    const { withdrawal, code } = await mm().withdrawals.request({
      amount: "10000",
      destination: fresh,
      signature: SIG,
    });
    expect([withdrawal.status, code]).toEqual(["MLRO_REVIEW", "new_destination_edd"]);
    const again = await mm().withdrawals.request({ amount: "10000", destination: fresh, signature: SIG });
    expect([again.withdrawal.status, again.code]).toEqual(["PENDING", undefined]);
  });

  it("the list filters by status, from/to and pages with an opaque cursor", async () => {
    const all = await mm().withdrawals.list({ limit: 200 });
    expect(all.walletAddress).toBe(WALLET.mm);
    expect(all.withdrawals.length).toBe(5);
    expect((await mm().withdrawals.list({ status: "CANCELLED" })).withdrawals.length).toBe(1);
    const first = await mm().withdrawals.list({ limit: 4 });
    expect(first.withdrawals.length).toBe(4);
    const second = await mm().withdrawals.list({ limit: 4, cursor: first.nextCursor ?? "" });
    expect(second.nextCursor).toBeNull();
    expect([...first.withdrawals, ...second.withdrawals].map((w) => w.id)).toEqual(
      all.withdrawals.map((w) => w.id),
    );
    const to = all.withdrawals[0]?.createdAt ?? "";
    expect((await mm().withdrawals.list({ to })).withdrawals.every((w) => w.createdAt < to)).toBe(true);
  });

  it("malformed bodies are 400 bad_request; a read-only key lacks vault:write", async () => {
    for (const body of [
      { amount: "1", destination: "x", signature: SIG },
      { amount: "1", destination: DEST },
    ]) {
      expect((await h.fetch("/api/withdrawals/request", { key: h.keys.trader, body })).body.code).toBe(
        "bad_request",
      );
    }
    const res = await h.fetch("/api/withdrawals/request", { key: h.keys.readOnly, body: {} });
    expect([res.status, res.body.code]).toEqual([403, "api_key_scope_missing"]);
  });
});
