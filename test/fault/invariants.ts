import { expect } from "vitest";
import type { DaemonOutcome } from "../../src/app/outcome.js";
import type { ScenarioRow } from "./table.js";
import type { VenueOrder } from "./venue-log.js";
import type { TappedRequest } from "./wire-tap.js";

/**
 * The invariants every fault scenario ends with. Each check is pure over what the recorders saw
 * (the mock venue's own order log, the wire tap between bot and exchange, the bot's book states and
 * engine) and returns its verdict; `expectInvariants` asserts them all at once and condenses them
 * into the "invariants" cell of the scenario table.
 */
export interface Verdict {
  /** Short name for the table: orphans, dup, inventory, stale, exit. */
  readonly name: string;
  readonly ok: boolean;
  /** A few words for the table, e.g. "0 orphan(s)". */
  readonly summary: string;
  /** What is wrong (at most 8 entries); empty when ok. */
  readonly problems: readonly string[];
}

/** An order the engine still tracks (any non-terminal state), as TradingEngine.liveOrders() lists them. */
export interface TrackedOrder {
  readonly clientOrderId: string;
  readonly orderId: string | undefined;
}

/**
 * Zero orphans: every order of the wallet open on the exchange is one the bot tracks as live, by
 * orderId or (for a placement whose answer is still on its way, or an ambiguous one) by clientOrderId.
 * An order the bot believes cancelled or never placed but that rests on the exchange is an orphan.
 */
export function checkNoOrphans(venueOpen: readonly VenueOrder[], tracked: readonly TrackedOrder[]): Verdict {
  const ids = new Set(tracked.flatMap((o) => (o.orderId === undefined ? [] : [o.orderId])));
  const cids = new Set(tracked.map((o) => o.clientOrderId));
  const orphans = venueOpen.filter(
    (o) => !ids.has(o.orderId) && (o.clientOrderId === undefined || !cids.has(o.clientOrderId)),
  );
  return verdict("orphans", orphans.length === 0, `${orphans.length} orphan(s)`, orphans.map(describe));
}

/**
 * Zero orphans for a bot we cannot look inside (a CLI child): every open order of the wallet carries
 * the running session's clientOrderId prefix (`mm-<session>-`), i.e. nothing of a previous run rests.
 */
export function checkNoForeignOrders(venueOpen: readonly VenueOrder[], session: string): Verdict {
  const prefix = `mm-${session}-`;
  const foreign = venueOpen.filter((o) => !(o.clientOrderId ?? "").startsWith(prefix));
  return verdict("orphans", foreign.length === 0, `${foreign.length} orphan(s)`, foreign.map(describe));
}

/**
 * Zero duplicate orders per clientOrderId, checked twice:
 * - on the exchange: no clientOrderId owns two orders, and every order of the bot has one;
 * - on the wire: a placement is sent again under the same clientOrderId only after an answer that
 *   says it was definitely not done (4xx, 429, 503 exchange_unavailable or without a code, or a
 *   REJECTED placement). After an acceptance, any other 5xx, a timeout or no answer at all, it must
 *   never be resent (the mock would
 *   deduplicate it, so only the wire shows a resend).
 */
export function checkNoDuplicates(
  venueOrders: Iterable<VenueOrder>,
  wire: readonly TappedRequest[],
): Verdict {
  const problems: string[] = [];
  const byCid = new Map<string, string[]>();
  for (const o of venueOrders) {
    if (o.clientOrderId === undefined) {
      problems.push(`order ${o.orderId} has no clientOrderId`);
      continue;
    }
    byCid.set(o.clientOrderId, [...(byCid.get(o.clientOrderId) ?? []), o.orderId]);
  }
  for (const [cid, ids] of byCid) if (ids.length > 1) problems.push(`${cid} → orders ${ids.join(", ")}`);
  const sends = new Map<string, TappedRequest[]>();
  for (const r of wire) {
    if (r.clientOrderId === undefined) continue;
    sends.set(r.clientOrderId, [...(sends.get(r.clientOrderId) ?? []), r]);
  }
  let resent = 0;
  for (const [cid, list] of sends) {
    list.slice(0, -1).forEach((r) => {
      if (mayHaveBeenDone(r)) {
        resent++;
        problems.push(`${cid} resent after ${r.status ?? "no answer"} ${r.placementStatus ?? ""}`.trim());
      }
    });
  }
  let dups = 0;
  for (const ids of byCid.values()) if (ids.length > 1) dups++;
  return verdict("dup", problems.length === 0, `${dups} dup, ${resent} resent`, problems);
}

/** True when a placement request's answer leaves open that the order exists. */
export function mayHaveBeenDone(r: TappedRequest): boolean {
  if (r.status === undefined) return true;
  if (r.status >= 200 && r.status < 300) return r.placementStatus !== "REJECTED";
  if (r.status === 503) return r.errorCode !== undefined && r.errorCode !== "exchange_unavailable";
  return r.status >= 500;
}

/**
 * Inventory equals the exchange's positions: for every token the bot trades, the holdings at start
 * plus the engine's position since start (its inventory) equals the venue's share balance now.
 * Quantities in micro-shares.
 */
export function checkInventory(
  tokens: readonly string[],
  baseline: ReadonlyMap<string, bigint>,
  engineRelative: (tokenId: string) => bigint,
  venueNow: ReadonlyMap<string, bigint>,
): Verdict {
  const off: string[] = [];
  for (const t of tokens) {
    const bot = (baseline.get(t) ?? 0n) + engineRelative(t);
    const exchange = venueNow.get(t) ?? 0n;
    if (bot !== exchange) off.push(`${t.slice(0, 10)}…: bot ${bot} ≠ exchange ${exchange}`);
  }
  return verdict("inventory", off.length === 0, off.length === 0 ? "= mock" : `${off.length} off`, off);
}

/** A span during which a token's book was not quotable for the bot (stale, resyncing or crossed). */
export interface StaleSpan {
  readonly tokenId: string;
  readonly from: number;
  /** undefined: still not quotable. */
  readonly to: number | undefined;
}

/**
 * No quote live while its book is stale. "Stale" is taken broadly: any state the risk guard refuses
 * to quote from (stale, resyncing, crossed), since each means the price it quoted may be wrong.
 * - no placement is sent for a token while its book is not quotable (`placeSent`: token, Date.now());
 * - no order of ours rests on a token more than `graceMs` into a non-quotable span (the bot must
 *   pull it; the grace is the cancel's round trip on a loaded 2-core box), plus the time the event
 *   loop that bot, tap and mock share was stalled from the span's start until the order ended
 *   (`stalled`, see loop-stall.ts): a round trip no part of which could run meanwhile is not late.
 */
export function checkNoStaleQuotes(
  spans: readonly StaleSpan[],
  venueOrders: Iterable<VenueOrder>,
  placeSent: readonly { tokenId: string; at: number }[],
  graceMs: number,
  now: number,
  stalled: (from: number, to: number) => number = () => 0,
): Verdict {
  const problems: string[] = [];
  for (const p of placeSent) {
    const s = spans.find((x) => x.tokenId === p.tokenId && p.at > x.from && p.at < (x.to ?? now));
    if (s !== undefined)
      problems.push(`placement sent ${p.at - s.from} ms into a stale span of ${p.tokenId}`);
  }
  const orders = [...venueOrders];
  for (const s of spans) {
    const end = s.to ?? now;
    if (end - s.from <= graceMs) continue;
    for (const o of orders) {
      if (o.tokenId !== s.tokenId) continue;
      const oEnd = o.endedAt ?? now;
      const liveUntil = Math.min(oEnd, end);
      const stall = stalled(s.from, liveUntil);
      if (o.placedAt < end && oEnd > s.from + graceMs + stall) {
        problems.push(
          `${o.orderId} live ${Math.max(0, liveUntil - s.from)} ms into a stale span (grace ${graceMs} ms + ${stall} ms loop stall)`,
        );
      }
    }
  }
  const spanCount = spans.length;
  return verdict("stale", problems.length === 0, `0 live in ${spanCount} stale span(s)`, problems);
}

/**
 * Nothing is placed where the exchange is known to refuse it: no placement handed to the exchange
 * (the engine's place_sent, stamped in the bot's own event loop) for `tokenIds` (undefined = any)
 * in [from, to), the span during which the bot knew the market (or the platform) was not open.
 * `from` is the bot's own log line saying so, written in the same tick as it told the engine.
 */
export function checkNoPlacementsWhile(
  placeSent: readonly { tokenId: string; at: number }[],
  tokenIds: readonly string[] | undefined,
  from: number,
  to: number,
): Verdict {
  const sent = placeSent.filter(
    (p) => p.at >= from && p.at < to && (tokenIds === undefined || tokenIds.includes(p.tokenId)),
  );
  return verdict(
    "gated",
    sent.length === 0,
    `${sent.length} placement(s) in ${((to - from) / 1000).toFixed(1)} s closed`,
    sent.map((p) => `${p.tokenId.slice(0, 10)}… sent ${p.at - from} ms after the bot knew`),
  );
}

/** The bot stopped with `code` and a reason naming `reason`. */
export function checkExit(outcome: DaemonOutcome | undefined, code: number, reason: string): Verdict {
  const ok = outcome !== undefined && outcome.exitCode === code && outcome.reason.includes(reason);
  return verdict(
    "exit",
    ok,
    `exit ${outcome?.exitCode ?? "none"} (${outcome?.reason ?? "still running"})`,
    ok ? [] : [`wanted exit ${code} naming ${reason}`],
  );
}

/**
 * Writes the verdicts into the scenario's table row (`note` first), then asserts them all at once,
 * so that a failing scenario still shows in the table what it found.
 */
export function expectInvariants(row: ScenarioRow, verdicts: readonly Verdict[], note = ""): void {
  const cell = verdicts.map((v) => `${v.ok ? "✓" : "✗"} ${v.name}: ${v.summary}`).join("; ");
  row.invariants = note === "" ? cell : `${note}; ${cell}`;
  const failed = verdicts.filter((v) => !v.ok);
  expect(failed.map((v) => `${v.name}: ${v.summary}: ${v.problems.join("; ")}`)).toEqual([]);
}

function verdict(name: string, ok: boolean, summary: string, problems: readonly string[]): Verdict {
  return { name, ok, summary, problems: problems.slice(0, 8) };
}

function describe(o: VenueOrder): string {
  return `${o.orderId} (${o.clientOrderId ?? "no clientOrderId"}) on ${o.tokenId.slice(0, 10)}…`;
}
