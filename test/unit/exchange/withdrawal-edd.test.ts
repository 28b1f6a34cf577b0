import { afterEach, describe, expect, it } from "vitest";
import type { ExchangeHttpClient } from "../../../src/exchange/client.js";
import { ExchangeError } from "../../../src/exchange/exchange-error.js";
import { clientFor } from "../../integration/exchange/helpers.js";
import { standardHeaders } from "../../support/exchange-fixtures.js";
import { sendJson, startTestServer, type TestHandler } from "../../support/http-test-server.js";

/**
 * Spec, Codes: `new_destination_edd | 200 (envelope) | New destination above the threshold; goes to
 * compliance review`, and the withdrawal state table: PENDING → MLRO_REVIEW "new destination above the
 * review threshold", code `new_destination_edd`. So a 200 envelope `{code: "new_destination_edd",
 * message}` means the withdrawal WAS created and is under review.
 *
 * mm used to read any 200 body made only of envelope keys as a business reject, so this answer
 * became outcome "rejected" — "definitely not done" — and a caller trusting it could request the
 * withdrawal again (found by review). It is "ambiguous" now: done, but with no record to return.
 */

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function setup(handler: TestHandler): Promise<ExchangeHttpClient> {
  const server = await startTestServer(handler);
  const client = clientFor(server);
  cleanups.push(async () => {
    client.close();
    await server.close();
  });
  return client;
}

describe("a withdrawal request answered with the new_destination_edd envelope", () => {
  it("does not report a withdrawal sent to compliance review as a definite reject", async () => {
    const client = await setup((_r, res) =>
      sendJson(
        res,
        200,
        { code: "new_destination_edd", message: "new destination; sent to compliance review" },
        standardHeaders("rq-edd"),
      ),
    );
    let outcome = "no error";
    try {
      await client.withdrawals.request({
        amount: "25000",
        destination: "0x3333333333333333333333333333333333333333",
        signature: "0x00",
      });
    } catch (err) {
      if (!(err instanceof ExchangeError)) throw err;
      outcome = err.outcome;
    }
    expect(outcome).toBe("ambiguous");
  });
});
