import { GatewayError } from "./errors.js";
import { isRecord } from "./schema/fields.js";
import { type Channel, isChannel, type Sid } from "./types.js";

/** One subscription as the server reports it. */
export interface SubscriptionInfo {
  readonly sid: Sid;
  readonly channel: Channel;
  readonly ids: readonly string[];
}

/** A refused entry of a subscribe command (spec: Subscription rejections). */
export interface SubscribeRejection {
  readonly channel: string;
  readonly ids: readonly string[];
  readonly code: string;
  readonly message: string;
}

/** Reply to subscribe: `{type: "subscribed", accepted: [{sid, channel, ids}], rejected: [...]}`. */
export interface Subscribed {
  readonly accepted: readonly SubscriptionInfo[];
  readonly rejected: readonly SubscribeRejection[];
}

/** Reply to update_subscription (shape not shown in the spec; fields read when present). */
export interface SubscriptionUpdated {
  readonly sid: Sid | undefined;
  readonly ids: readonly string[] | undefined;
  readonly added: readonly string[] | undefined;
  readonly removed: readonly string[] | undefined;
}

/** Reply to ping: the server's clock when present (comparable with X-Server-Time). */
export interface Pong {
  readonly serverTs: number | undefined;
}

/** Reply to get_book_snapshot: the sid whose book_snapshot event follows, when said. */
export interface BookSnapshotRequested {
  readonly sid: Sid | undefined;
  readonly tokenId: string | undefined;
}

const bad = (cmd: string, what: string): GatewayError =>
  new GatewayError("bad_reply", `${cmd}: malformed reply (${what})`, { cmd });

function strings(v: unknown): string[] | undefined {
  return Array.isArray(v) && v.every((x) => typeof x === "string") ? (v as string[]) : undefined;
}

function sidOf(v: unknown): Sid | undefined {
  return typeof v === "number" || typeof v === "string" ? v : undefined;
}

function info(v: unknown): SubscriptionInfo | undefined {
  if (!isRecord(v)) return undefined;
  const sid = sidOf(v.sid);
  const ids = v.ids === undefined ? [] : strings(v.ids);
  if (sid === undefined || !isChannel(v.channel) || ids === undefined) return undefined;
  return { sid, channel: v.channel, ids };
}

/** Parses a subscribed reply; throws GatewayError `bad_reply` when it is not one. */
export function parseSubscribed(r: Record<string, unknown>): Subscribed {
  if (!Array.isArray(r.accepted)) throw bad("subscribe", "accepted is not an array");
  const accepted = r.accepted.map(info);
  if (accepted.some((a) => a === undefined)) throw bad("subscribe", "accepted entry");
  const rejected = (Array.isArray(r.rejected) ? r.rejected : []).map((x: unknown): SubscribeRejection => {
    const e = isRecord(x) ? x : {};
    return {
      channel: typeof e.channel === "string" ? e.channel : "",
      ids: strings(e.ids) ?? [],
      code: typeof e.code === "string" ? e.code : "rejected",
      message: typeof e.message === "string" ? e.message : "",
    };
  });
  return { accepted: accepted as SubscriptionInfo[], rejected };
}

/** Ids of one subscribe entry refused together, with the code and message they were refused with. */
export interface RefusedGroup {
  readonly ids: readonly string[];
  readonly code: string;
  readonly message: string;
}

/**
 * The verdict on `ids` of a subscribe entry on `channel` that the server did not accept: each id
 * named by a rejected entry of that channel takes that entry's code and message (a partial
 * accept: the server held the rest of the entry and said why it refused these); the others take
 * `fallback`. `norm` maps an id to how the server spells it (vault addresses are lowercased).
 * @example refusedGroups(["1", "2"], [{channel: "token_book", ids: ["2"], code: "forbidden", message: ""}],
 *   "token_book", {code: "not_accepted", message: ""}, (id) => id)
 * // [{ids: ["2"], code: "forbidden", message: ""}, {ids: ["1"], code: "not_accepted", message: ""}]
 */
export function refusedGroups(
  ids: readonly string[],
  rejected: readonly SubscribeRejection[],
  channel: Channel,
  fallback: { code: string; message: string },
  norm: (id: string) => string,
): RefusedGroup[] {
  const groups: { ids: string[]; code: string; message: string }[] = [];
  const rest: string[] = [];
  for (const id of ids) {
    const r = rejected.find((x) => x.channel === channel && x.ids.some((y) => norm(y) === norm(id)));
    if (r === undefined) {
      rest.push(id);
      continue;
    }
    const g = groups.find((x) => x.code === r.code && x.message === r.message);
    if (g === undefined) groups.push({ ids: [id], code: r.code, message: r.message });
    else g.ids.push(id);
  }
  if (rest.length > 0) groups.push({ ids: rest, ...fallback });
  return groups;
}

/** Parses an update_subscription reply (tolerant: every field optional). */
export function parseUpdated(r: Record<string, unknown>): SubscriptionUpdated {
  return { sid: sidOf(r.sid), ids: strings(r.ids), added: strings(r.added), removed: strings(r.removed) };
}

/** Parses a list_subscriptions reply `{subscriptions: [{sid, channel, ids}]}`. */
export function parseSubscriptionList(r: Record<string, unknown>): SubscriptionInfo[] {
  if (!Array.isArray(r.subscriptions)) throw bad("list_subscriptions", "subscriptions is not an array");
  const list = r.subscriptions.map(info);
  if (list.some((s) => s === undefined)) throw bad("list_subscriptions", "subscription entry");
  return list as SubscriptionInfo[];
}

/**
 * Parses a pong: `serverTs` at the top level, or under `data` (the spec shows no pong payload,
 * and its events carry theirs under `data`).
 * @example parsePong({ type: "pong", data: { serverTs: 5 } }) // { serverTs: 5 }
 */
export function parsePong(r: Record<string, unknown>): Pong {
  const ts = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
  return { serverTs: ts(r.serverTs) ?? (isRecord(r.data) ? ts(r.data.serverTs) : undefined) };
}

/** A command's refusal, as its `error` reply gives it. */
export interface ErrorReply {
  readonly code: string;
  readonly message: string;
}

/**
 * Reads the code and message of an `error` reply. The spec shows no WebSocket error payload: the
 * code is read at the top level (`{type: "error", code, message}`, the mock's shape) or nested as
 * `error: {code, message}` (the shape of the HTTP nested envelope), the top level first; the message
 * comes from where the code did. Without a code in either place it is `command_failed`, which the
 * sync retries (refusal-policy.ts), so only a code that was sent can make a refusal final.
 * @example parseErrorReply({ type: "error", error: { code: "forbidden", message: "no" } })
 * // { code: "forbidden", message: "no" }
 */
export function parseErrorReply(r: Record<string, unknown>): ErrorReply {
  const text = (v: unknown) => (typeof v === "string" ? v : undefined);
  const nested = isRecord(r.error) ? r.error : {};
  for (const at of [r, nested]) {
    const code = text(at.code);
    if (code !== undefined && code !== "") return { code, message: text(at.message) ?? "" };
  }
  return { code: "command_failed", message: text(r.message) ?? text(nested.message) ?? "" };
}

/** Parses a get_book_snapshot acknowledgement. */
export function parseSnapshotRequested(r: Record<string, unknown>): BookSnapshotRequested {
  return { sid: sidOf(r.sid), tokenId: typeof r.tokenId === "string" ? r.tokenId : undefined };
}
