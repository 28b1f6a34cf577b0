import { describe, expect, it } from "vitest";
import {
  daemonEnv,
  KEY_ID,
  market,
  openOnMock,
  seedMarket,
  startMock,
  waitFor,
} from "../integration/daemon/support.js";
import { childSlots, msg, spawnMm } from "./support.js";

const ARG = market("arg-vs-fra-final-arg-win");

const slots = childSlots();

describe("a fatal authentication close", () => {
  it("the key revoked while quoting: mm stops with exit 3 naming api_key_revoked", async () => {
    slots.mock = await startMock();
    seedMarket(slots.mock, ARG, "0.50", "0.60");
    slots.mm = spawnMm(["run"], daemonEnv(slots.mock, [ARG.slug]));
    await slots.mm.waitFor(msg("engine started"), 15_000, "the engine to start");
    const m = slots.mock;
    await waitFor(() => openOnMock(m).length >= 4, 3_000, "quotes on the mock");
    m.admin.revokeKey(KEY_ID);
    const code = await Promise.race([
      slots.mm.exited,
      new Promise((r) => setTimeout(() => r("still running after 8 s"), 8_000)),
    ]);
    expect(code).toBe(3);
    expect(slots.mm.stderr()).toContain(
      "mm run: the exchange refused the API key for good (api_key_revoked)",
    );
    const fatal = slots.mm.records.find((r) => r.level === 50 && String(r.msg).includes("for good"));
    expect(fatal?.code).toBe("api_key_revoked");
    expect(fatal?.msg).toMatch(/closed \/ws\/(user|market) for good \(api_key_revoked\)/);
  });

  it("a key already revoked at start: exit 3 before anything is quoted", async () => {
    slots.mock = await startMock();
    seedMarket(slots.mock, ARG, "0.50", "0.60");
    slots.mock.admin.revokeKey(KEY_ID);
    slots.mm = spawnMm(["run"], daemonEnv(slots.mock, [ARG.slug]));
    expect(await slots.mm.exited).toBe(3);
    expect(slots.mm.stderr()).toContain(
      "the exchange refused the API key (api_key_revoked) at start-up; nothing was quoted",
    );
    expect(openOnMock(slots.mock)).toEqual([]);
  });
});
