import type { IncomingMessage } from "node:http";
import { authenticate, type Identity } from "../auth/authenticate.js";
import type { MockContext } from "../context.js";
import { clientIp, headerValue } from "../http/conventions.js";
import type { Gateway } from "./channels.js";

/** Close code of every authentication failure (spec: WebSocket authentication). */
export const CLOSE_AUTH = 4401;
/** Close code of an Origin outside the allowlist. */
export const CLOSE_POLICY = 1008;

export type Handshake =
  | { readonly ok: true; readonly identity: Identity }
  | { readonly ok: false; readonly code: typeof CLOSE_AUTH | typeof CLOSE_POLICY; readonly reason: string };

/** The gateway served at a path, or undefined for any other path. */
export function gatewayAt(pathname: string): Gateway | undefined {
  if (pathname === "/ws/market") return "market";
  if (pathname === "/ws/user") return "user";
  return undefined;
}

/**
 * Checks an upgrade request the way the spec's gateways do: Origin against the allowlist (a
 * request without Origin, as from a server-side bot, passes; "*" in the list allows any), then
 * the key from `X-Api-Key` or `key=`, the wallet from `X-User-Wallet` or `user_wallet=` (either
 * form for either value), through the HTTP API's ordered checks with no scope required. /ws/user
 * needs an acting wallet; /ws/market does not.
 *
 * Reasons: the spec's close table, plus two choices of the mock (README "Assumptions"): no key at
 * all gives `4401 auth_required` (the HTTP code for a missing key), and a banned acting wallet
 * gives `4401 wallet_banned`. A multi_wallet key without a wallet on /ws/user gives
 * `api_key_no_associated_wallet`, as the close table says (HTTP says api_key_user_wallet_required).
 */
export function checkHandshake(
  ctx: MockContext,
  req: IncomingMessage,
  gateway: Gateway,
  allowedOrigins: readonly string[],
): Handshake {
  const origin = headerValue(req.headers.origin);
  if (origin !== undefined && !allowedOrigins.includes("*") && !allowedOrigins.includes(origin)) {
    return { ok: false, code: CLOSE_POLICY, reason: "forbidden origin" };
  }
  const query = new URL(req.url ?? "/", "http://mock.invalid").searchParams;
  const auth = authenticate(ctx.directory, ctx.clock, {
    apiKey: nonEmpty(headerValue(req.headers["x-api-key"])) ?? nonEmpty(query.get("key")),
    userWallet: nonEmpty(headerValue(req.headers["x-user-wallet"])) ?? nonEmpty(query.get("user_wallet")),
    ip: clientIp(req),
    scopes: [],
    needsWallet: gateway === "user",
  });
  if (auth.ok) return { ok: true, identity: auth.identity };
  const code = auth.failure.code;
  return {
    ok: false,
    code: CLOSE_AUTH,
    reason: code === "api_key_user_wallet_required" ? "api_key_no_associated_wallet" : code,
  };
}

function nonEmpty(v: string | null | undefined): string | undefined {
  return v === null || v === undefined || v === "" ? undefined : v;
}
