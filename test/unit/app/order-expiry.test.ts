import { describe, expect, it } from "vitest";
import { withExpiry } from "../../../src/app/order-expiry.js";
import { SimClock } from "../../../src/core/sim-clock.js";
import { ServerClock } from "../../../src/exchange/server-clock.js";
import type { OrderBuilder, OrderRequest } from "../../../src/signing/order-builder.js";

/** A builder that records the requests it is given (only `build` is used). */
function recordingBuilder(): { builder: OrderBuilder; requests: OrderRequest[] } {
  const requests: OrderRequest[] = [];
  const builder = {
    build: async (r: OrderRequest) => {
      requests.push(r);
      return {} as Awaited<ReturnType<OrderBuilder["build"]>>;
    },
  } as unknown as OrderBuilder;
  return { builder, requests };
}

const request = { side: "buy", price: "0.5", quantity: "1", expiry: 0 } as unknown as OrderRequest;

describe("withExpiry: order expiries on the exchange's clock", () => {
  it("sets orderExpirySeconds from the server-time estimate, our clock until one exists", async () => {
    const clock = new SimClock(1_000_000_000);
    const server = new ServerClock(clock);
    const { builder, requests } = recordingBuilder();
    const b = withExpiry(builder, 60, () => server.serverNow());
    await b.build(request);
    expect(requests.at(-1)?.expiry).toBe(1_000_000 + 60);
    // An answer stamped 120 s ahead of us (X-Server-Time), 10 ms round trip.
    server.observe(clock.now(), clock.now() + 10, clock.now() + 5 + 120_000);
    await b.build(request);
    expect(requests.at(-1)?.expiry).toBe(1_000_120 + 60);
  });

  it("0 leaves the builder as it is (no expiry)", () => {
    const { builder } = recordingBuilder();
    expect(withExpiry(builder, 0, () => 0)).toBe(builder);
  });
});
