import { afterEach, describe, expect, it } from "vitest";
import type { MockExchange } from "../../src/mock/mock-exchange.js";
import {
  daemonEnv,
  KEY_ID,
  market,
  openOnMock,
  seedMarket,
  startMock,
  waitFor,
} from "../integration/daemon/support.js";
import { type MmChild, msg, reap, spawnMm } from "./support.js";

const ARG = market("arg-vs-fra-final-arg-win");

let mock: MockExchange | undefined;
let mm: MmChild | undefined;
afterEach(async () => {
  await reap(mm);
  await mock?.close();
  mm = undefined;
  mock = undefined;
});

describe("a fatal authentication close", () => {
  it("the key revoked while quoting: mm stops with exit 3 naming api_key_revoked", async () => {
    mock = await startMock();
    seedMarket(mock, ARG, "0.50", "0.60");
    mm = spawnMm(["run"], daemonEnv(mock, [ARG.slug]));
    await mm.waitFor(msg("engine started"), 15_000, "the engine to start");
    const m = mock;
    await waitFor(() => openOnMock(m).length >= 4, 3_000, "quotes on the mock");
    m.admin.revokeKey(KEY_ID);
    const code = await Promise.race([
      mm.exited,
      new Promise((r) => setTimeout(() => r("still running after 8 s"), 8_000)),
    ]);
    expect(code).toBe(3);
    expect(mm.stderr()).toContain("mm run: the exchange refused the API key for good (api_key_revoked)");
    const fatal = mm.records.find((r) => r.level === 50 && String(r.msg).includes("for good"));
    expect(fatal?.code).toBe("api_key_revoked");
    expect(fatal?.msg).toMatch(/closed \/ws\/(user|market) for good \(api_key_revoked\)/);
  });

  it("a key already revoked at start: exit 3 before anything is quoted", async () => {
    mock = await startMock();
    seedMarket(mock, ARG, "0.50", "0.60");
    mock.admin.revokeKey(KEY_ID);
    mm = spawnMm(["run"], daemonEnv(mock, [ARG.slug]));
    expect(await mm.exited).toBe(3);
    expect(mm.stderr()).toContain(
      "the exchange refused the API key (api_key_revoked) at start-up; nothing was quoted",
    );
    expect(openOnMock(mock)).toEqual([]);
  });
});
