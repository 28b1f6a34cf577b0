import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";
import type { Fill } from "../../../src/core/trading.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A journal path in a fresh private temp folder, removed after the test. */
export function journalPath(name = "journal.sqlite"): string {
  const dir = mkdtempSync(join(tmpdir(), "mm-journal-test-"));
  dirs.push(dir);
  return join(dir, name);
}

/** A fill of token "t1" (override any field). */
export function fill(over: Partial<Fill> = {}): Fill {
  return {
    tradeId: "tr1",
    orderId: "o1",
    clientOrderId: "mm-s1-aaaaaaaaaa-b0-1",
    tokenId: "t1",
    side: "buy",
    priceMicro: 470_000,
    sizeMicro: 10_000_000n,
    tsMs: Date.UTC(2025, 5, 1, 12),
    ...over,
  };
}

/** An account key (exchange base URL + wallet) as the daemon writes it. */
export const ACCOUNT = "http://127.0.0.1:1|0xabc";
