import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach } from "vitest";
import type { SimClock } from "../../../src/core/sim-clock.js";
import { type RecordableChannel, record } from "../../../src/gateway/record/recorder.js";
import { settle, until } from "../gateway/harness.js";
import { type Answer, RawServer } from "../gateway/raw-server.js";

export const TOKEN = "111";
export const CONDITION = `0x${"ab".repeat(32)}`;
const fields = { tokenId: TOKEN, conditionId: CONDITION, outcomeIndex: 0 };

/** A trade print of `tokenId` (default TOKEN) pushed under `sid`. */
export function print(sid: number, tradeId: string, tokenId = TOKEN) {
  return {
    type: "trade_matched",
    sid,
    channel: "token_trade_matches",
    id: tokenId,
    data: {
      ...fields,
      tokenId,
      tradeId,
      price: "0.5",
      quantity: "1",
      side: "buy",
      source: "matcher",
      tsMs: 1,
    },
  };
}

/** TOKEN's book snapshot at `seq` under `sid`. */
export function snapshot(sid: number, seq: number) {
  const levels = { bids: [{ price: "0.49", size: "10" }], asks: [{ price: "0.51", size: "10" }] };
  return {
    type: "book_snapshot",
    sid,
    channel: "token_book",
    id: TOKEN,
    data: { ...fields, ...levels, seq, tsMs: 1 },
  };
}

/** TOKEN's book delta to `seq` (from seq − 1) under `sid`. */
export function delta(sid: number, seq: number) {
  const changes = [{ side: "buy", price: "0.49", size: String(seq) }];
  return {
    type: "book_delta",
    sid,
    channel: "token_book",
    id: TOKEN,
    data: { ...fields, seq, prevSeq: seq - 1, changes, tsMs: 1 },
  };
}

interface Held {
  readonly sid: number;
  readonly channel: string;
  readonly ids: string[];
}

/**
 * The answers of a scripted /ws/market server that can drop a subscription while the socket lives:
 * subscribes are accepted with increasing sids (the first `refuse` token_trade_matches subscribes
 * refused `internal_error`, a retryable code), a token_book subscribe is followed by the book's
 * snapshot at `bookSeq` (as the spec's "exactly one after subscribe"). drop(sid) leaves the sid out
 * of list_subscriptions and refuses its unsubscribe invalid_params (unknown sid: the server forgot
 * it); ghost(sid) leaves it out of the list too but never answers its unsubscribe (a server still
 * holding it: its pushes go on). `at` keeps the SimClock time of each command, by name.
 */
export function dropServer(clock: SimClock) {
  let next = 1;
  const held = new Map<number, Held>();
  const dropped = new Set<number>();
  const ghosts = new Set<number>();
  const at: Record<string, number[]> = {};
  const state = { refuse: 0, bookSeq: 1 };
  const answer: Answer = (c, conn) => {
    at[c.cmd] = [...(at[c.cmd] ?? []), clock.now()];
    switch (c.cmd) {
      case "subscribe": {
        const subs = (c.params?.subscriptions ?? []) as { channel: string; ids?: string[] }[];
        const s = subs[0] ?? { channel: "" };
        if (s.channel === "token_trade_matches" && state.refuse > 0) {
          state.refuse--;
          const rejected = [
            { channel: s.channel, ids: s.ids ?? [], code: "internal_error", message: "busy" },
          ];
          return { type: "subscribed", accepted: [], rejected };
        }
        const sub = { sid: next++, channel: s.channel, ids: [...(s.ids ?? [])] };
        held.set(sub.sid, sub);
        if (s.channel === "token_book") setTimeout(() => conn.send(snapshot(sub.sid, state.bookSeq)), 5);
        return { type: "subscribed", accepted: [sub], rejected: [] };
      }
      case "list_subscriptions": {
        const listed = [...held.values()].filter((s) => !dropped.has(s.sid) && !ghosts.has(s.sid));
        return { type: "subscriptions", subscriptions: listed };
      }
      case "unsubscribe": {
        const sid = c.params?.sid as number;
        if (ghosts.has(sid)) return undefined;
        if (dropped.has(sid) || !held.has(sid))
          return { type: "error", code: "invalid_params", message: "unknown sid" };
        held.delete(sid);
        return { type: "unsubscribed", sids: [sid] };
      }
      case "ping":
        return { type: "pong", serverTs: clock.now() };
      case "get_book_snapshot":
        return { type: "book_snapshot_requested", tokenId: c.params?.tokenId };
      default:
        return { type: "error", code: "invalid_params", message: "unknown command" };
    }
  };
  return {
    answer,
    at,
    state,
    /** The newest sid held for `channel`. */
    sidOf: (channel: string) =>
      Math.max(...[...held.values()].filter((s) => s.channel === channel).map((s) => s.sid)),
    drop: (sid: number) => void dropped.add(sid),
    ghost: (sid: number) => void ghosts.add(sid),
  };
}

/**
 * `mm record` of TOKEN's `channels` from `srv` on `clock` (jitter 0.5: a link's first subscriptions
 * check exactly `checkMs` after it opened) into a fresh folder under `root`.
 */
export function recordOn(
  root: string,
  srv: RawServer,
  clock: SimClock,
  channels: readonly RecordableChannel[],
  checkMs = 10_000,
) {
  const outDir = mkdtempSync(join(root, "rec-"));
  const abort = new AbortController();
  const run = record({
    url: srv.url,
    apiKey: "k",
    tokens: [TOKEN],
    channels,
    outDir,
    rotate: { maxBytes: 1 << 30, maxAgeMs: 24 * 3_600_000 },
    signal: abort.signal,
    clock,
    random: () => 0.5,
    timing: { subscriptionCheckMs: checkMs },
  });
  return { abort, run, outDir };
}

/** How many times the server was sent `cmd` (its `at` times). */
export const count = (at: Record<string, number[]>, cmd: string) => at[cmd]?.length ?? 0;

/**
 * A test file's recordings: a temporary folder (removed after the file) and one scripted server at
 * a time (closed after each test). `start` serves `s` on 127.0.0.1 and records TOKEN's `channels`
 * from it on `clock`, returning once the first subscribe was sent (`what`) and 50 ms have passed;
 * `conn` is the recorder's socket at the server.
 */
export function recordings() {
  const root = mkdtempSync(join(tmpdir(), "mm-rec-dropped-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  let srv: RawServer | undefined;
  afterEach(async () => {
    await srv?.close();
    srv = undefined;
  });
  return async function start(
    clock: SimClock,
    s: { answer: Answer; at: Record<string, number[]> },
    channels: readonly RecordableChannel[],
    what = "the subscribe",
  ) {
    const server = await new RawServer(s.answer).listen();
    srv = server;
    const recording = recordOn(root, server, clock, channels);
    await until(() => count(s.at, "subscribe") === 1, what);
    await settle(50);
    const conn = () => server.conns[0] as RawServer["conns"][number];
    return { ...recording, conn };
  };
}
