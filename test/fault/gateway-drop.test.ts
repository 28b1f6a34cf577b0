import { afterEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import type { MockExchange } from "../../src/mock/mock-exchange.js";
import { API_KEY, startMock, waitFor } from "../integration/daemon/support.js";
import { adminCall } from "./harness.js";

let mock: MockExchange | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

/** A raw socket on one gateway, resolved once the server's `connected` frame arrived. */
async function open(m: MockExchange, gateway: "market" | "user"): Promise<{ closed: Promise<number> }> {
  const ws = new WebSocket(`${m.wsUrl}/ws/${gateway}`, { headers: { "X-Api-Key": API_KEY } });
  const closed = new Promise<number>((resolve) => ws.once("close", (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    ws.once("message", () => resolve());
    ws.once("error", reject);
  });
  return { closed };
}

// The fault suite drops one gateway while the other stays up (a lost /ws/user with fills during the
// outage; a lost /ws/market alone): /__admin/drop-sockets takes an optional gateway for that.
describe("/__admin/drop-sockets {gateway}", () => {
  it("drops only the named gateway's sockets, abruptly (1006); without one, every socket", async () => {
    const m = await startMock();
    mock = m;
    const market = await open(m, "market");
    const user = await open(m, "user");
    expect(await adminCall(m, "drop-sockets", { gateway: "user" })).toEqual({ dropped: 1 });
    expect(await user.closed).toBe(1006);
    await waitFor(() => m.admin.state().openSockets === 1, 2_000, "the market socket alone");
    const user2 = await open(m, "user");
    expect(await adminCall(m, "drop-sockets", {})).toEqual({ dropped: 2 });
    expect(await market.closed).toBe(1006);
    expect(await user2.closed).toBe(1006);
    await waitFor(() => m.admin.state().openSockets === 0, 2_000, "no socket left");
  });

  it("refuses an unknown gateway with 400 invalid_argument", async () => {
    const m = await startMock();
    mock = m;
    await expect(adminCall(m, "drop-sockets", { gateway: "both" })).rejects.toThrow(
      /answered 400: .*invalid_argument/,
    );
  });
});
