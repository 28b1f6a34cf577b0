import type { EventFrameRejection } from "./schema/events.js";
import { isRecord } from "./schema/fields.js";
import { type Channel, isWalletScoped, PLATFORM_STATUS_ID } from "./types.js";

/**
 * An event of a subscribed (channel, id) that validation refused: the frame is counted as
 * malformed and dropped, and whoever follows that id has lost an event (a book has missed a
 * frame; an account stream a fill). Listeners decide what losing it means (the book tracker
 * resyncs the book).
 */
export interface RefusedEvent {
  /** The event type the frame carried. */
  readonly type: string;
  readonly channel: Channel;
  /** The validator's reason (the counter label) and, for bad_field, which field. */
  readonly rejected: EventFrameRejection["rejected"];
  readonly field?: string | undefined;
  /**
   * The subscribed ids the frame names (its envelope id and its payload's key, when they are
   * strings; both when they disagree, since either may be the one that lost an event); empty on
   * the wallet-scoped channels, which take no ids.
   */
  readonly ids: readonly string[];
  readonly link: number;
  /** Local receive time on the client's Clock. */
  readonly recvTs: number;
}

/** The payload field each keyed channel names its subscription id in (spec: Events). */
const KEY_FIELD: Readonly<Record<Channel, string | undefined>> = {
  token_book: "tokenId",
  token_trade_matches: "tokenId",
  token_trade_settlements: "tokenId",
  token_ohlc: "tokenId",
  condition_lifecycle: "conditionId",
  vault_positions: "vaultAddress",
  system: undefined,
  user_orders: undefined,
  user_fills: undefined,
};

/**
 * The ids of `channel` a refused frame may be about and `wants` holds, or undefined when the
 * frame concerns nothing subscribed (nobody lost anything). Reads the raw frame: it failed
 * validation, so only what is a string is trusted as an id, and only subscribed ids come out.
 * @example refusedIds("token_book", { id: "12", data: { tokenId: "12", seq: "7" } }, wants) // ["12"]
 */
export function refusedIds(
  channel: Channel,
  frame: Record<string, unknown>,
  wants: (channel: Channel, id: string) => boolean,
): string[] | undefined {
  if (isWalletScoped(channel)) return wants(channel, "") ? [] : undefined;
  const named: string[] = [];
  if (typeof frame.id === "string") named.push(frame.id);
  const field = KEY_FIELD[channel];
  const data = frame.data;
  if (channel === "system") named.push(PLATFORM_STATUS_ID);
  else if (field !== undefined && isRecord(data) && typeof data[field] === "string") {
    named.push(data[field] as string);
  }
  // Conditions and vaults are subscribed lowercased (ids.ts): a badly cased one still names them.
  const lower = channel === "condition_lifecycle" || channel === "vault_positions";
  const ids = [...new Set(lower ? named.map((n) => n.toLowerCase()) : named)].filter((id) =>
    wants(channel, id),
  );
  return ids.length === 0 ? undefined : ids;
}
