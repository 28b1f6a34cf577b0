import type { Channel } from "./channels.js";

/**
 * Text of the gateways' frames. An event is formatted once per publish and only the connection-
 * local `sid` differs per subscriber, so `EventFrame` keeps the JSON around the sid and splices it
 * in: fan-out to many subscribers costs one concatenation each, not one JSON.stringify each.
 */
export class EventFrame {
  readonly #head: string;
  readonly #tail: string;

  /**
   * @param id envelope id (token, condition, vault or "platform_status"); undefined on the
   *   wallet-scoped channels, where the spec omits it.
   * @example new EventFrame("book_delta", "token_book", "123", { seq: 2 }).text(7)
   * // '{"type":"book_delta","sid":7,"channel":"token_book","id":"123","data":{"seq":2}}'
   */
  constructor(type: string, channel: Channel, id: string | undefined, data: unknown) {
    this.#head = `{"type":${JSON.stringify(type)},"sid":`;
    const idPart = id === undefined ? "" : `,"id":${JSON.stringify(id)}`;
    this.#tail = `,"channel":"${channel}"${idPart},"data":${JSON.stringify(data)}}`;
  }

  /** The frame as sent to subscription `sid`. */
  text(sid: number): string {
    return this.#head + sid + this.#tail;
  }
}

/** The client's correlation id, echoed back as sent; null when the frame had none. */
export type CommandId = string | number | null;

/** A command response: `{id, type, ...body}`. */
export function responseFrame(id: CommandId, type: string, body: Record<string, unknown> = {}): string {
  return JSON.stringify({ id, type, ...body });
}

/**
 * The error frame of a command that could not be carried out (shape not shown in the spec):
 * `{id, type: "error", cmd?, code, message}`; `id` is null when the frame was not JSON.
 */
export function errorFrame(id: CommandId, code: string, message: string, cmd?: string): string {
  return JSON.stringify(
    cmd === undefined ? { id, type: "error", code, message } : { id, type: "error", cmd, code, message },
  );
}
