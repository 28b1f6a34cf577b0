import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDaemon } from "../../../src/app/daemon.js";
import { observed } from "../../../src/app/observed.js";
import { loadConfig } from "../../../src/config/load.js";
import { createMockExchange, type MockExchange } from "../../../src/mock/mock-exchange.js";
import { createLogger } from "../../../src/observability/logger.js";
import { daemonEnv, SCENARIO } from "./support.js";

describe("mm run's operator endpoints (observed daemon against the mock)", () => {
  let mock: MockExchange;
  beforeAll(async () => {
    mock = await createMockExchange({ scenario: SCENARIO });
  });
  afterAll(async () => {
    await mock.close();
  });

  it("serves /health, /ready (503 with a reason, then 200) and /metrics fed by the daemon; closes with it", async () => {
    const slug = SCENARIO.markets.find((m) => m.status === "OPEN")?.slug ?? "";
    const config = loadConfig({ files: [], env: daemonEnv(mock, [slug]), cwd: process.cwd() });
    const logger = createLogger({ level: "silent", pretty: false });
    let metricsUrl = "";
    const lines: string[] = [];
    const capture = createLogger({
      level: "info",
      pretty: false,
      destination: { write: (l: string) => void lines.push(l) } as never,
    });
    const daemon = await observed(config, capture, false, (metrics) =>
      startDaemon(config, { logger, metrics }),
    );
    metricsUrl = /metrics at (http:\/\/127\.0\.0\.1:\d+)\/metrics/.exec(lines.join(""))?.[1] ?? "";
    expect(metricsUrl).not.toBe("");
    expect((await fetch(`${metricsUrl}/health`)).status).toBe(200);
    let ready = await fetch(`${metricsUrl}/ready`);
    for (let i = 0; i < 50 && ready.status !== 200; i++) {
      expect(ready.status).toBe(503);
      expect(((await ready.json()) as { reason: string }).reason).toBeTruthy();
      await new Promise((r) => setTimeout(r, 100));
      ready = await fetch(`${metricsUrl}/ready`);
    }
    expect(ready.status).toBe(200);
    const text = await (await fetch(`${metricsUrl}/metrics`)).text();
    expect(text).toMatch(/^mm_book_updates_total\{market="[^"]+",outcome="YES"\} [1-9]/m);
    expect(text).toMatch(/^mm_orders_placed_total\{market="[^"]+"\} [1-9]/m);
    expect(text).toMatch(/^process_cpu_seconds_total /m);
    const outcome = await daemon.stop("test");
    expect(outcome.exitCode).toBe(0);
    await daemon.done;
    await expect(fetch(`${metricsUrl}/health`)).rejects.toThrow();
  });
});
