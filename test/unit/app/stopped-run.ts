import { DaemonRun, type RunParts } from "../../../src/app/daemon-run.js";
import type { DaemonJournal } from "../../../src/app/journal.js";
import type { MmConfig } from "../../../src/config/types.js";
import { SimClock } from "../../../src/core/sim-clock.js";
import type { TradingEngine } from "../../../src/engine/engine.js";
import type { StopCount } from "../../../src/engine/engine-api.js";
import type { ExchangeHttpClient } from "../../../src/exchange/client.js";
import { createLogger } from "../../../src/observability/logger.js";
import { collectingStream } from "../../support/collecting-stream.js";

/**
 * A DaemonRun whose engine's stop leaves `left`, with a journal that restored `journaled` orders of
 * earlier runs (o0, o1, …), the first `goneClosed` of them since journaled closed as gone; no
 * journal when `journaled` is undefined.
 */
export function stoppedRun(left: StopCount, journaled?: number, goneClosed = 0): DaemonRun {
  const engine = { stop: async () => left } as unknown as TradingEngine;
  const restored = new Map(Array.from({ length: journaled ?? 0 }, (_, i) => [`o${i}`, `c${i}`]));
  const journal =
    journaled === undefined
      ? undefined
      : ({
          restore: { orders: restored },
          goneClosed: Promise.resolve(goneClosed),
          goneOrders: Promise.resolve(new Set([...restored.keys()].slice(0, goneClosed))),
          close: () => undefined,
        } as unknown as DaemonJournal);
  const parts: RunParts = {
    config: { shutdown: { timeoutMs: 1_000 } } as unknown as MmConfig,
    clock: new SimClock(1_000),
    logger: createLogger({ level: "info", pretty: false, destination: collectingStream() }),
    engine,
    client: { close: () => undefined } as unknown as ExchangeHttpClient,
    reporter: { close: () => undefined } as unknown as RunParts["reporter"],
    journal,
    onStopping: undefined,
  };
  return new DaemonRun(parts);
}
