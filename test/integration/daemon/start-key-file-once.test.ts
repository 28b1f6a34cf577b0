import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startDaemon } from "../../../src/app/daemon.js";
import {
  API_KEY,
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
const slots = daemonSlots();
let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/*
 * The API key file is read once, when the configuration loads; the start's check of the key, the
 * HTTP client and the WebSockets all take that value. A file rewritten after the load (here with a
 * key the exchange does not know) changes nothing for the run: no part of the start reads it again.
 */
describe("daemon: the API key file", () => {
  it("is read once, at load: a key written over it before the start is not used", async () => {
    slots.mock = await startMock();
    seedMarket(slots.mock, ARG, "0.50", "0.60");
    dir = mkdtempSync(join(tmpdir(), "mm-key-"));
    const file = join(dir, "api.key");
    writeFileSync(file, `${API_KEY}\n`, { mode: 0o600 });
    chmodSync(file, 0o600);
    const config = daemonConfig(slots.mock, [ARG.slug], { MM_API_KEY: "", MM_API_KEY_FILE: file });
    expect(config.secrets.apiKey?.source).toBe(`file ${file}`);
    writeFileSync(file, `mm_test_fedcba9876543210_${"B".repeat(42)}A\n`, { mode: 0o600 });

    const { logger } = memoryLogger();
    const d = await startDaemon(config, { logger });
    slots.daemon = d;
    const m = slots.mock;
    await waitFor(() => openOnMock(m, ARG.yesTokenId).length > 0, 2_000, "quotes");
    expect(d.engine.status().started).toBe(true);
  });
});
