import { statSync } from "node:fs";
import { join } from "node:path";
import { writeHeapSnapshot } from "node:v8";
import type { JournalSettings } from "../../src/app/journal-settings.js";
import { paperConfigFile } from "../../src/app/paper.js";
import { loadConfig } from "../../src/config/load.js";
import type { MmConfig } from "../../src/config/types.js";
import { manyMarkets } from "../integration/daemon/many-markets.js";
import { API_KEY, PRIVATE_KEY } from "../integration/daemon/support.js";

/**
 * The bot's exchange calls by endpoint and outcome, and the 429s its queue met, from the last scrape
 * of its own /metrics (`mm_http_request_duration_seconds_count`, `mm_queue_rate_limited_total`).
 */
export function exchangeCalls(exposition: string): Record<string, number> {
  const out: Record<string, number> = {};
  const calls = /^mm_http_request_duration_seconds_count\{endpoint="([^"]+)",outcome="([^"]+)"\} (\d+)/;
  const limited = /^mm_queue_rate_limited_total\{op="([^"]+)"\} (\d+)/;
  for (const line of exposition.split("\n")) {
    const c = calls.exec(line);
    if (c !== null && c[3] !== "0") out[`${c[1]} ${c[2]}`] = Number(c[3]);
    const l = limited.exec(line);
    if (l !== null && l[2] !== "0") out[`429 on ${l[1]}`] = Number(l[2]);
  }
  return out;
}

/**
 * The journal as paper mode keeps it (journal.enabled, its snapshot period and sync level), its file
 * in the soak's private folder (removed after the run); undefined when the config turns it off.
 */
export function soakJournal(config: MmConfig, dir: string): JournalSettings | undefined {
  if (!config.journal.enabled) return undefined;
  return {
    path: join(dir, "journal.sqlite"),
    snapshotIntervalMs: config.journal.snapshotIntervalMs,
    sync: config.journal.synchronous,
    retentionDays: config.journal.retentionDays,
  };
}

/** Bytes of a SQLite file with its -wal and -shm companions (0 for those missing). */
export function fileBytes(path: string): number {
  let n = 0;
  for (const p of [path, `${path}-wal`, `${path}-shm`]) {
    try {
      n += statSync(p).size;
    } catch {
      // not there
    }
  }
  return n;
}

/** Writes a V8 heap snapshot named `name` into `dir` (when set): it blocks the loop for seconds. */
export function snapshot(dir: string | undefined, name: string, print: (line: string) => void): void {
  if (dir === undefined) return;
  const file = writeHeapSnapshot(join(dir, `${name}.heapsnapshot`));
  print(`soak: heap snapshot ${file}`);
}

/**
 * Paper mode's configuration (config/paper.json) pointed at the soak's mock with the paper
 * credentials, every generated market quoted, the metrics server on a free port, and the working
 * directory a private temporary one (relative paths such as a journal's land there).
 */
export function soakConfig(mock: { httpUrl: string; wsUrl: string }, markets: number, cwd: string): MmConfig {
  const scenario = manyMarkets(markets);
  return loadConfig({
    files: [paperConfigFile()],
    cwd,
    env: {
      MM_EXCHANGE_BASE_URL: mock.httpUrl,
      MM_EXCHANGE_WS_URL: mock.wsUrl,
      MM_API_KEY: API_KEY,
      MM_PRIVATE_KEY: PRIVATE_KEY,
      MM_ENGINE_MARKETS: JSON.stringify(["*"]),
      MM_MARKETS_TICK_SIZES: JSON.stringify(
        Object.fromEntries(scenario.markets.map((m) => [m.slug, m.tickSize])),
      ),
      MM_LOG_LEVEL: "info",
      MM_LOG_PRETTY: "false",
      MM_METRICS_PORT: "0",
    },
  });
}
