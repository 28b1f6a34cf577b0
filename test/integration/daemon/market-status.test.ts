import { describe, expect, it } from "vitest";
import { startDaemon } from "../../../src/app/daemon.js";
import type { MockExchange } from "../../../src/mock/mock-exchange.js";
import {
  daemonConfig,
  daemonSlots,
  market,
  memoryLogger,
  openOnMock,
  seedMarket,
  startMock,
  waitFor,
} from "./support.js";

const ARG = market("arg-vs-fra-final-arg-win");
const FRA = market("arg-vs-fra-final-fra-win");

const slots = daemonSlots();

async function quoting(): Promise<MockExchange> {
  const m = await startMock();
  slots.mock = m;
  seedMarket(m, ARG, "0.50", "0.60");
  seedMarket(m, FRA, "0.30", "0.40");
  slots.daemon = await startDaemon(daemonConfig(m, [ARG.slug, FRA.slug]), {
    logger: memoryLogger("warn").logger,
  });
  const onToken = (t: string) => openOnMock(m, t).length > 0;
  await waitFor(
    () => [ARG, FRA].every((x) => onToken(x.yesTokenId) && onToken(x.noTokenId)),
    3_000,
    "quotes",
  );
  return m;
}

describe("exchange state pushed over /ws/market reaches the engine", () => {
  it("market paused (condition_lifecycle): its quotes are cancelled, the other market keeps quoting; resumed: quoted again", async () => {
    const m = await quoting();
    m.admin.pauseMarket(ARG.id);
    const argOrders = () => openOnMock(m, ARG.yesTokenId).length + openOnMock(m, ARG.noTokenId).length;
    await waitFor(() => argOrders() === 0, 1_000, "the paused market's quotes cancelled");
    expect(openOnMock(m, FRA.yesTokenId).length).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 300));
    expect(argOrders()).toBe(0); // and none placed while paused
    m.admin.resumeMarket(ARG.id);
    await waitFor(() => argOrders() > 0, 1_000, "quotes back after the resume");
  });

  it("platform frozen (system/platform_status): every quote cancelled; unfrozen: quoted again", async () => {
    const m = await quoting();
    m.admin.freezePlatform(true);
    await waitFor(() => openOnMock(m).length === 0, 1_000, "every quote cancelled");
    m.admin.freezePlatform(false);
    await waitFor(() => openOnMock(m, FRA.yesTokenId).length > 0, 1_000, "quotes back after the thaw");
  });
});
