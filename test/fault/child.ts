import { type MmChild, spawnMm } from "../e2e/support.js";
import { WAIT_MS, type World } from "./harness.js";

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

/**
 * Waits until a child's quotes are settled: every token quoted (World.quoting) and every order of
 * the wallet open on the venue known to the child — its placement answered on the wire, or, where
 * the child stopped waiting for that answer (its 1.5 s timeout: it holds the order `unknown` until a
 * reconcile finds it), two reconciles of the child completed since such orders were first seen.
 * The counterpart of runDaemon's settled start for a child, whose order states the test cannot
 * read. Why: on a loaded box the first placements can outlast the timeout; a child that holds
 * them unknown, with no orderId to cancel by, has also counted them as errors, and a fault injected
 * then meets that state (an error-rate halt's wallet cancel-all once took every quote a scenario
 * meant to leave behind).
 */
export async function quotesSettled(world: World, metrics: string, what: string): Promise<void> {
  // The unsure orders last seen, and the child's reconcile count when that set appeared.
  let seen = "";
  let from = 0;
  await waitForAsync(
    async () => {
      if (!world.quoting()) return false;
      const answered = new Set(
        world.tap.requests
          .filter((r) => r.clientOrderId !== undefined && r.status !== undefined && !r.abandoned)
          .map((r) => r.clientOrderId),
      );
      const unsure = world.venue
        .open()
        .filter((o) => !answered.has(o.clientOrderId))
        .map((o) => o.orderId)
        .sort()
        .join(",");
      if (unsure === "") return true;
      const runs = await reconcileRuns(metrics);
      if (unsure !== seen) {
        seen = unsure;
        from = runs;
      }
      return runs >= from + 2;
    },
    WAIT_MS,
    what,
  );
}

/**
 * One line on a child and the venue, for a failed wait's message: running or its exit, its quotes
 * resting per token, the wallet's open orders of other sessions, its last warnings and last lines.
 * Why: a wait that times out on a child says only what it waited for; the child's own log (kept in
 * memory, gone with the test) is what tells a legitimate wait from a stall.
 */
export function childState(world: World, mm: MmChild, session: string): string {
  const exit = mm.child.exitCode ?? mm.child.signalCode;
  const prefix = `mm-${session}-`;
  const open = world.venue.open();
  const ours = world.tokens.map((t) =>
    open.filter((o) => o.tokenId === t && o.clientOrderId?.startsWith(prefix)),
  );
  const foreign = open
    .filter((o) => !o.clientOrderId?.startsWith(prefix))
    .map((o) => o.clientOrderId ?? o.orderId);
  const line = (r: Record<string, unknown>) =>
    `${String(r.time)} ${String(r.msg)}${typeof r.code === "string" ? ` (${r.code})` : ""}`;
  const warnings = mm.records.filter((r) => Number(r.level) >= 40).slice(-8);
  return [
    `${session}: ${exit === null ? "running" : `exited (${exit})`}`,
    `its quotes resting per token: ${ours.map((q) => q.length).join("/")}`,
    `open orders of other sessions: [${foreign.join(", ")}]`,
    `its last warnings: ${warnings.map(line).join(" | ") || "none"}`,
    `its last lines: ${mm.records.slice(-6).map(line).join(" | ")}`,
  ].join("; ");
}
