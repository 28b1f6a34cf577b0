import { createHash } from "node:crypto";
import type { RouteResult } from "../route.js";

/** A JSON answer (200 unless told). */
export function json(body: unknown, status = 200): RouteResult {
  return { status, body };
}

/** ms → ISO-8601 UTC. */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * A deterministic uuid (version 4 layout) from a name: the mock's ids for records the scenario
 * does not number (matches, withdrawals), stable across runs of one scenario.
 * @example uuidFrom("match:6f1c…0001") // "3b1f…-…" (same value every run)
 */
export function uuidFrom(name: string): string {
  const h = createHash("sha256").update(name).digest("hex");
  const variant = ((Number.parseInt(h.slice(16, 17), 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
