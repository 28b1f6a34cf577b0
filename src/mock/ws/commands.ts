import type { Connection } from "./connection.js";
import { type CommandId, errorFrame, responseFrame } from "./frames.js";
import {
  type BookRefusal,
  type CommandFailure,
  type Outcome,
  subscribe,
  updateSubscription,
} from "./subscribe.js";
import type { Subscription } from "./subscriptions.js";

/** What the command handler needs from the publishers and the clock. */
export interface CommandHooks {
  /** Pushes what a subscription gets at once for newly covered ids (snapshots, current status). */
  afterSubscribe(sub: Subscription, ids: readonly string[]): void;
  /** Pushes book_snapshot (or book_snapshot_failed) of one token to one subscription. */
  sendBookSnapshot(sub: Subscription, tokenId: string): void;
  /** The injected refusal of a token's token_book subscription (the refuse-book fault), if any. */
  bookRefusal: BookRefusal;
  now(): number;
}

/**
 * Handles one client frame `{id, cmd, params}`. Every command gets exactly one response echoing
 * its `id` (shapes in README "Assumptions"): subscribed, subscription_updated, unsubscribed,
 * subscriptions, pong `{serverTs}`, book_snapshot_requested `{sid, tokenId}` (followed by the
 * book_snapshot event on that sid), or `{type: "error", cmd, code, message}`. A frame that is not
 * JSON, has no `cmd`, names an unknown command or carries non-object params gets an error with
 * code invalid_params; nothing a client sends can throw out of here.
 */
export function handleMessage(conn: Connection, raw: string, hooks: CommandHooks): void {
  let frame: unknown;
  try {
    frame = JSON.parse(raw);
  } catch {
    conn.send(errorFrame(null, "invalid_params", "frame is not valid JSON"));
    return;
  }
  if (typeof frame !== "object" || frame === null || Array.isArray(frame)) {
    conn.send(errorFrame(null, "invalid_params", "frame must be a JSON object {id, cmd, params}"));
    return;
  }
  const f = frame as Record<string, unknown>;
  const id: CommandId = typeof f.id === "string" || typeof f.id === "number" ? f.id : null;
  if (typeof f.cmd !== "string") {
    conn.send(errorFrame(id, "invalid_params", "cmd must be a string"));
    return;
  }
  const cmd = f.cmd;
  const params = f.params ?? {};
  if (typeof params !== "object" || params === null || Array.isArray(params)) {
    conn.send(errorFrame(id, "invalid_params", "params must be an object", cmd));
    return;
  }
  const result = run(conn, cmd, params as Record<string, unknown>, hooks);
  if ("error" in result) {
    conn.send(errorFrame(id, result.error.code, result.error.message, cmd));
    return;
  }
  conn.send(responseFrame(id, result.type, result.body));
  for (const [sub, ids] of result.gained) hooks.afterSubscribe(sub, ids);
  if (result.refresh !== undefined) hooks.sendBookSnapshot(...result.refresh);
}

function run(
  conn: Connection,
  cmd: string,
  params: Record<string, unknown>,
  hooks: CommandHooks,
): Outcome | CommandFailure {
  switch (cmd) {
    case "subscribe":
      return subscribe(conn, params, hooks.bookRefusal);
    case "update_subscription":
      return updateSubscription(conn, params, hooks.bookRefusal);
    case "unsubscribe":
      return unsubscribe(conn, params);
    case "list_subscriptions":
      return ok("subscriptions", {
        subscriptions: conn.subs.list().map((s) => ({ sid: s.sid, channel: s.channel, ids: [...s.ids] })),
      });
    case "ping":
      return ok("pong", { serverTs: hooks.now() });
    case "get_book_snapshot":
      return bookSnapshot(conn, params);
    default:
      return { error: { code: "invalid_params", message: `unknown command ${JSON.stringify(cmd)}` } };
  }
}

const ok = (type: string, body: Record<string, unknown>): Outcome => ({ type, body, gained: [] });

/** `unsubscribe` with `params.sid` or `params.sids`; all or nothing. */
function unsubscribe(conn: Connection, params: Record<string, unknown>): Outcome | CommandFailure {
  const sids = params.sids !== undefined ? params.sids : params.sid !== undefined ? [params.sid] : undefined;
  if (!Array.isArray(sids) || sids.length === 0) {
    return { error: { code: "invalid_params", message: "params.sid or params.sids required" } };
  }
  const unknown = sids.find((sid) => conn.subs.get(sid) === undefined);
  if (unknown !== undefined) {
    return { error: { code: "invalid_params", message: `unknown sid ${JSON.stringify(unknown)}` } };
  }
  for (const sid of sids as number[]) conn.subs.remove(sid);
  return ok("unsubscribed", { sids });
}

/**
 * `get_book_snapshot` with `params.tokenId`: the token must be covered by a token_book
 * subscription of this connection, whose sid carries the refreshed book_snapshot (or
 * book_snapshot_failed for a token the venue does not list).
 */
function bookSnapshot(conn: Connection, params: Record<string, unknown>): Outcome | CommandFailure {
  const tokenId = params.tokenId;
  if (typeof tokenId !== "string" || tokenId === "") {
    return { error: { code: "invalid_params", message: "params.tokenId must be a tokenId string" } };
  }
  const sub = conn.subs.list().find((s) => s.channel === "token_book" && s.ids.has(tokenId));
  if (sub === undefined) {
    return { error: { code: "invalid_params", message: `token ${tokenId} is not subscribed on token_book` } };
  }
  return {
    type: "book_snapshot_requested",
    body: { sid: sub.sid, tokenId },
    gained: [],
    refresh: [sub, tokenId],
  };
}
