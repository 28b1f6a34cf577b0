import type { Daemon } from "../../src/app/daemon.js";
import type { EngineEvent } from "../../src/engine/engine-events.js";
import { waitFor } from "../integration/daemon/support.js";
import type { StaleSpan } from "./invariants.js";

/**
 * Spans of non-quotable book state per token, from the bot's BookTracker state events, stamped with
 * Date.now() in the bot's own event loop (the token's state at call time opens the first span).
 */
export function recordStaleSpans(daemon: Daemon, tokens: readonly string[]): StaleSpan[] {
  const tracker = daemon.feeds.market.tracker;
  const spans: { tokenId: string; from: number; to: number | undefined }[] = [];
  const open = new Map<string, (typeof spans)[number]>();
  const see = (tokenId: string, quotable: boolean) => {
    const cur = open.get(tokenId);
    if (!quotable && cur === undefined) {
      const s = { tokenId, from: Date.now(), to: undefined };
      spans.push(s);
      open.set(tokenId, s);
    } else if (quotable && cur !== undefined) {
      cur.to = Date.now();
      open.delete(tokenId);
    }
  };
  for (const t of tokens) see(t, tracker.state(t)?.quotable ?? false);
  tracker.onState((e) => see(e.tokenId, e.quotable));
  return spans;
}

/**
 * Waits for `n` successful reconciles that complete after now. Any reason counts (periodic,
 * reconnect, ambiguous, unresolved): every run is the same full pass (open orders → orphans
 * cancelled, ghosts looked up, trades backfilled, positions checked). The timeout message lists the
 * runs seen, failures included.
 */
export async function reconcilesAfter(events: readonly EngineEvent[], n: number, ms: number): Promise<void> {
  const from = events.length;
  const seen = () =>
    events.slice(from).filter((e) => e.type === "reconcile" || e.type === "reconcile_failed");
  try {
    await waitFor(() => seen().filter((e) => e.type === "reconcile").length >= n, ms, `${n} reconcile(s)`);
  } catch (err) {
    const runs = seen().map((e) =>
      e.type === "reconcile"
        ? `ok:${e.summary.reason}`
        : `failed:${e.type === "reconcile_failed" ? e.reason : ""}`,
    );
    throw new Error(`${(err as Error).message}; runs seen: [${runs.join(", ")}]`);
  }
}

/** The wallet-wide halts the risk guard decided (error-rate halt, platform frozen…), by reason, in order. */
export function walletHalts(events: readonly EngineEvent[]): string[] {
  const out: string[] = [];
  for (const e of events) {
    if (e.type === "decision" && e.decision.scope === "wallet" && e.decision.action === "cancel") {
      out.push(e.decision.reason);
    }
  }
  return out;
}
