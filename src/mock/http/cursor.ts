import { createHmac, timingSafeEqual } from "node:crypto";
import type { Keyset } from "../../venue/types.js";
import { HttpProblem } from "./problem.js";

/**
 * Opaque keyset cursors over (createdAt, id), as the spec's paginated reads hand out in
 * `nextCursor`. The text is base64url of `[createdAt, id, mac]`, where mac is a truncated
 * HMAC-SHA256 over the list name, the wallet and the position: a cursor edited by hand, or carried
 * to another list or wallet, is refused with 400 `bad_request` rather than silently read.
 */
export class CursorCodec {
  readonly #secret: Buffer;

  /** @param secret the mock's own key (derived from the scenario, so cursors survive nothing but the process). */
  constructor(secret: string) {
    this.#secret = Buffer.from(secret, "utf8");
  }

  /**
   * The cursor for the page after `position` of `list` for `wallet`.
   * @example codec.encode("orders", wallet, { createdAt: 1767225600000, id: "0197…" })
   */
  encode(list: string, wallet: string, position: Keyset): string {
    const payload = [position.createdAt, position.id, this.#mac(list, wallet, position)];
    return Buffer.from(JSON.stringify(payload), "utf8").toString("base64url");
  }

  /** Reads a cursor back; undefined for an absent one, 400 `bad_request` for anything not ours. */
  decode(list: string, wallet: string, cursor: string | null | undefined): Keyset | undefined {
    if (cursor === null || cursor === undefined || cursor === "") return undefined;
    const position = this.#parse(cursor);
    if (position === undefined) throw badCursor();
    const expected = Buffer.from(this.#mac(list, wallet, position.keyset), "utf8");
    const given = Buffer.from(position.mac, "utf8");
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw badCursor();
    return position.keyset;
  }

  #parse(cursor: string): { keyset: Keyset; mac: string } | undefined {
    if (!/^[A-Za-z0-9_-]{1,512}$/.test(cursor)) return undefined;
    let value: unknown;
    try {
      value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    } catch {
      return undefined;
    }
    if (!Array.isArray(value) || value.length !== 3) return undefined;
    const [createdAt, id, mac] = value as unknown[];
    if (typeof createdAt !== "number" || !Number.isSafeInteger(createdAt) || createdAt < 0) return undefined;
    if (typeof id !== "string" || id === "" || typeof mac !== "string") return undefined;
    return { keyset: { createdAt, id }, mac };
  }

  #mac(list: string, wallet: string, p: Keyset): string {
    return createHmac("sha256", this.#secret)
      .update(`${list}\n${wallet.toLowerCase()}\n${p.createdAt}\n${p.id}`)
      .digest("base64url")
      .slice(0, 16);
  }
}

function badCursor(): HttpProblem {
  return new HttpProblem(400, "bad_request", "cursor is not one this server issued", { field: "cursor" });
}
