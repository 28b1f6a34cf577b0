import {
  type Channel,
  checkChannel,
  checkIds,
  isWalletScoped,
  MAX_IDS,
  MAX_SUBSCRIPTIONS,
  type RejectCode,
  type Rejection,
} from "./channels.js";
import type { Connection } from "./connection.js";
import type { Subscription } from "./subscriptions.js";

/** A command's outcome: the correlated response, then what to push once it has been sent. */
export interface Outcome {
  readonly type: string;
  readonly body: Record<string, unknown>;
  /** Subscriptions that gained ids (snapshots and current status follow the response). */
  readonly gained: readonly (readonly [Subscription, readonly string[]])[];
  /** A book to send again on a subscription (get_book_snapshot). */
  readonly refresh?: readonly [Subscription, string];
}

/** A command that could not be carried out: the error frame's code and message. */
export interface CommandFailure {
  readonly error: Rejection;
}

const fail = (code: Rejection["code"], message: string): CommandFailure => ({ error: { code, message } });

/**
 * The code an injected fault (refuse-book, FaultState.feed.refusedBooks) refuses one token's
 * token_book subscription with, or undefined.
 */
export type BookRefusal = (tokenId: string) => RejectCode | undefined;

const noRefusal: BookRefusal = () => undefined;

/**
 * `subscribe` with `params.subscriptions: [{channel, ids}]`: each entry is accepted with a new sid
 * or rejected with the spec's code (channels.ts), the 256-per-connection cap checked last.
 * Response `{type: "subscribed", accepted: [{sid, channel, ids}], rejected: [{channel, ids, code,
 * message}]}`; wallet-scoped channels are accepted with `ids: []`. Token ids `refusal` names (an
 * injected fault) are split off a token_book entry into a rejected entry per code, the rest of it
 * accepted: a partial accept, the accepted entry listing only the ids the server holds.
 */
export function subscribe(
  conn: Connection,
  params: Record<string, unknown>,
  refusal: BookRefusal = noRefusal,
): Outcome | CommandFailure {
  const requested = params.subscriptions;
  if (!Array.isArray(requested)) return fail("invalid_params", "params.subscriptions must be an array");
  const accepted: Record<string, unknown>[] = [];
  const rejected: Record<string, unknown>[] = [];
  const gained: [Subscription, string[]][] = [];
  for (const entry of requested as unknown[]) {
    const e = typeof entry === "object" && entry !== null ? (entry as Record<string, unknown>) : {};
    const verdict = check(conn, e);
    if ("code" in verdict) {
      rejected.push({ channel: e.channel ?? null, ids: e.ids ?? [], ...verdict });
      continue;
    }
    const split = splitRefused(verdict.channel, verdict.ids, refusal);
    rejected.push(...split.rejected);
    if (split.kept.length === 0 && split.rejected.length > 0) continue;
    const sub = conn.subs.add(verdict.channel, split.kept);
    accepted.push({ sid: sub.sid, channel: sub.channel, ids: [...sub.ids] });
    gained.push([sub, split.kept]);
  }
  return { type: "subscribed", body: { accepted, rejected }, gained };
}

function check(
  conn: Connection,
  e: Record<string, unknown>,
): Rejection | { channel: Channel; ids: string[] } {
  const c = checkChannel(e.channel, conn.caller);
  if ("code" in c) return c;
  const ids = checkIds(c.channel, e.ids, conn.caller);
  if ("code" in ids) return ids;
  if (conn.subs.size >= MAX_SUBSCRIPTIONS) {
    return {
      code: "subscription_cap_exceeded",
      message: `at most ${MAX_SUBSCRIPTIONS} subscriptions per connection`,
    };
  }
  return { channel: c.channel, ids: ids.ids };
}

// The ids of a token_book entry an injected fault refuses, one rejected entry per code.
function splitRefused(
  channel: Channel,
  ids: string[],
  refusal: BookRefusal,
): { kept: string[]; rejected: { channel: Channel; ids: string[]; code: RejectCode; message: string }[] } {
  if (channel !== "token_book") return { kept: ids, rejected: [] };
  const kept: string[] = [];
  const byCode = new Map<RejectCode, string[]>();
  for (const id of ids) {
    const code = refusal(id);
    if (code === undefined) kept.push(id);
    else byCode.set(code, [...(byCode.get(code) ?? []), id]);
  }
  const rejected = [...byCode].map(([code, refused]) => ({
    channel,
    ids: refused,
    code,
    message: `token_book subscription refused for ${refused.join(", ")}`,
  }));
  return { kept, rejected };
}

/**
 * `update_subscription` with `params: {sid, add_ids?: string[], remove_ids?: string[]}` (at least
 * one of the two; removals apply first). All or nothing: an add_ids over 100 ids, or a result over
 * 100 ids, fails with subscription_too_many_ids; an unknown sid, a wallet-scoped channel or a bad
 * id with invalid_params; a foreign vault with forbidden; a token `refusal` names (an injected fault)
 * with its code. Response `{type: "subscription_updated", sid, channel, ids, added, removed}`;
 * token_book sends a snapshot of each added token.
 */
export function updateSubscription(
  conn: Connection,
  params: Record<string, unknown>,
  refusal: BookRefusal = noRefusal,
): Outcome | CommandFailure {
  const sub = conn.subs.get(params.sid);
  if (sub === undefined) return fail("invalid_params", `unknown sid ${JSON.stringify(params.sid)}`);
  if (isWalletScoped(sub.channel)) return fail("invalid_params", `${sub.channel} takes no ids`);
  const { add_ids: add, remove_ids: remove } = params;
  if (add === undefined && remove === undefined)
    return fail("invalid_params", "add_ids or remove_ids required");
  if (remove !== undefined && (!Array.isArray(remove) || remove.some((id) => typeof id !== "string"))) {
    return fail("invalid_params", "remove_ids must be an array of strings");
  }
  let toAdd: string[] = [];
  if (add !== undefined) {
    if (!Array.isArray(add)) return fail("invalid_params", "add_ids must be an array of strings");
    if (add.length > 0) {
      const ids = checkIds(sub.channel, add, conn.caller);
      if ("code" in ids) return { error: ids };
      const split = splitRefused(sub.channel, ids.ids, refusal);
      const first = split.rejected[0];
      if (first !== undefined) return fail(first.code, first.message);
      toAdd = ids.ids;
    }
  }
  const norm = (id: string) => (sub.channel === "vault_positions" ? id.toLowerCase() : id);
  const toRemove = new Set(((remove ?? []) as string[]).map(norm));
  const after = new Set([...sub.ids].filter((id) => !toRemove.has(id)));
  for (const id of toAdd) after.add(id);
  if (after.size > MAX_IDS) {
    return fail(
      "subscription_too_many_ids",
      `a subscription holds at most ${MAX_IDS} ids (would hold ${after.size})`,
    );
  }
  const removed = conn.subs.removeIds(sub, [...toRemove]);
  const added = conn.subs.addIds(sub, toAdd);
  return {
    type: "subscription_updated",
    body: { sid: sub.sid, channel: sub.channel, ids: [...sub.ids], added, removed },
    gained: added.length > 0 ? [[sub, added]] : [],
  };
}
