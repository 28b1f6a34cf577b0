import { type MmChild, spawnMm } from "../e2e/support.js";
import type { World } from "./harness.js";

/**
 * Starts `mm run` as a child process on the world (session `session`, `extra` env on top), adds it
 * to `children` for the caller's clean-up, and resolves once its engine has started, with the URL of
 * its /metrics (metrics.port 0: a free port, logged at start).
 */
export async function runChild(
  world: World,
  session: string,
  children: MmChild[],
  extra: Record<string, string> = {},
): Promise<{ mm: MmChild; metrics: string }> {
  const mm = spawnMm(["run"], world.env({ MM_ENGINE_SESSION: session, ...extra }));
  children.push(mm);
  const at = await mm.waitFor((r) => typeof r.metrics === "string", 20_000, `${session}: the metrics server`);
  await mm.waitFor((r) => r.msg === "engine started", 20_000, `${session}: the engine`);
  return { mm, metrics: String(at.metrics) };
}

/** The samples of one metric family from a /metrics scrape, label set → value. */
export async function scrape(url: string, family: string): Promise<Map<string, number>> {
  const text = await (await fetch(url)).text();
  const out = new Map<string, number>();
  for (const line of text.split("\n")) {
    const m = line.match(/^(\w+)(\{[^}]*\})? (\S+)$/);
    if (m?.[1] === family) out.set(m[2] ?? "", Number(m[3]));
  }
  return out;
}

/** Successful reconciles of a child (any reason), from its metrics. */
export async function reconcileRuns(metrics: string): Promise<number> {
  let n = 0;
  for (const [labels, v] of await scrape(metrics, "mm_reconcile_runs_total"))
    if (labels.includes('result="ok"')) n += v;
  return n;
}

/** The last line a child wrote to stderr (mm's closing line: why it stopped and the exit code). */
export function lastLine(mm: MmChild): string {
  return mm.stderr().trim().split("\n").at(-1) ?? "";
}

/** Polls an async probe every 50 ms until it holds; fails after `ms`. */
export async function waitForAsync(probe: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const until = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > until) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
