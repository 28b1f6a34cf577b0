import { MmError } from "../core/errors.js";
import { describeText, readEnvelope } from "../exchange/envelopes.js";
import type { GatewayKind } from "./types.js";

/**
 * A gateway failure that is not fatal: a command timed out, the connection was lost under a
 * command, nothing is connected. Codes: `command_timeout`, `connection_lost`, `not_connected`,
 * `connect_timeout`, `bad_connected_frame`, `bad_reply`, `client_closed`, `not_subscribed`.
 */
export class GatewayError extends MmError {}

/**
 * The server refused a command: an `error` frame or a rejected subscription. `code` is the
 * server's code verbatim (invalid_params, forbidden, api_key_scope_missing,
 * subscription_cap_exceeded, subscription_too_many_ids, …); details carry cmd and message.
 * @example
 * try { await conn.commands.getBookSnapshot(id) } catch (e) {
 *   if (e instanceof CommandRejectedError && e.code === "invalid_params") …
 * }
 */
export class CommandRejectedError extends GatewayError {
  readonly cmd: string;
  /** The server's own message. */
  readonly serverMessage: string;
  constructor(cmd: string, code: string, message: string, details: Record<string, unknown> = {}) {
    super(code, `${cmd} rejected: ${code}: ${message}`, { cmd, serverMessage: message, ...details });
    this.cmd = cmd;
    this.serverMessage = message;
  }
}

/**
 * The gateway closed the socket for a reason that reconnecting cannot cure: `4401 <reason>`
 * (the key is bad, unknown, revoked, expired, suspended, IP-denied, walletless…) or
 * `1008 forbidden origin`, or the upgrade was refused over HTTP. `code` is the close reason
 * (`api_key_revoked`, …), `forbidden_origin` for 1008, `upgrade_rejected` for an HTTP refusal,
 * `unsupported_protocol_version` for a /ws/market connect frame whose protocolVersion is not 2.
 * The client stops: no reconnect loop.
 */
export class GatewayFatalError extends MmError {
  readonly gateway: GatewayKind;
  readonly closeCode: number | undefined;
  constructor(
    gateway: GatewayKind,
    code: string,
    message: string,
    closeCode: number | undefined,
    details: Record<string, unknown> = {},
  ) {
    super(code, message, { gateway, closeCode, ...details });
    this.gateway = gateway;
    this.closeCode = closeCode;
  }
}

/**
 * Whether a fatal close is an upgrade refused over HTTP without the exchange's error code: not the
 * key. The spec's handshake failures are 4401 close frames after the upgrade, so what refuses the
 * upgrade itself is another service or a proxy at exchange.wsUrl (a 404 for a wrong path, a login
 * page's 401, a firewall's 403). A 401/403 whose body carries the exchange's code is the key's
 * (fatalUpgrade names it by that code).
 */
export function wrongGatewayUrl(err: GatewayFatalError): boolean {
  return err.code === "upgrade_rejected";
}

/**
 * What answered a refused upgrade, for the line that names exchange.wsUrl: the status, and for a
 * 401/403 that it carried no exchange error code and what it did carry.
 * @example upgradeAnswer(fatalUpgrade("market", 404)!) // "the upgrade was answered HTTP 404 (a wrong path?)"
 */
export function upgradeAnswer(err: GatewayFatalError): string {
  const status = String(err.details.httpStatus);
  if (status !== "401" && status !== "403") return `the upgrade was answered HTTP ${status} (a wrong path?)`;
  const body = typeof err.details.body === "string" ? err.details.body : "no body read whole";
  return `the upgrade was answered HTTP ${status} without the exchange API's error code (its handshake refusals are 4401 closes): got ${body}`;
}

/** Close code of every handshake/authentication failure (spec: WebSocket authentication). */
export const CLOSE_AUTH = 4401;
/** Close code of an Origin outside the allowlist. */
export const CLOSE_POLICY = 1008;

/**
 * The fatal error a close implies, or undefined when reconnecting may help (network drop 1006,
 * server restart 1001/1012, …). Every 4401 is fatal: the spec offers no other auth fallback, and
 * a reconnect with the same key gets the same answer (even the "server misconfiguration" reasons
 * need an operator). A 4401 without a reason is reported as `api_key_rejected`. A 1008 is fatal
 * only at the handshake (`afterConnected` false), where the spec puts its one use, a forbidden
 * Origin; after the `connected` frame it is RFC 6455's generic policy violation (a proxy's, say),
 * which a reconnect may clear — and if the reconnect's handshake is refused 1008, that is fatal.
 */
export function fatalClose(
  gateway: GatewayKind,
  code: number,
  reason: string,
  afterConnected = false,
): GatewayFatalError | undefined {
  if (code === CLOSE_AUTH) {
    const r = /^[a-z0-9_]{1,64}$/.test(reason) ? reason : "api_key_rejected";
    return new GatewayFatalError(gateway, r, `/ws/${gateway} closed 4401 ${r}`, code, { reason });
  }
  if (code === CLOSE_POLICY && !afterConnected) {
    return new GatewayFatalError(gateway, "forbidden_origin", `/ws/${gateway} closed 1008 ${reason}`, code, {
      reason,
    });
  }
  return undefined;
}

/**
 * The fatal error of an upgrade refused over HTTP, or undefined when it may pass later: 4xx other
 * than 408/429 is fatal (a wrong path or a refused key does not heal), 5xx and 408/429 are retried.
 * A 401 or 403 whose `body` carries the exchange's error envelope is the exchange refusing the key:
 * its code (`api_key_revoked`, …) names the error, as a 4401 close's reason does. Any other refusal
 * is `upgrade_rejected`, with the body quoted (cut at 120 characters) when one was read.
 * @example fatalUpgrade("market", 401, '{"code":"api_key_revoked"}')?.code // "api_key_revoked"
 */
export function fatalUpgrade(
  gateway: GatewayKind,
  status: number,
  body?: string,
): GatewayFatalError | undefined {
  if (status < 400 || status >= 500 || status === 408 || status === 429) return undefined;
  const code = status === 401 || status === 403 ? exchangeCode(body) : undefined;
  if (code !== undefined) {
    return new GatewayFatalError(
      gateway,
      code,
      `/ws/${gateway} upgrade refused with HTTP ${status} ${code}`,
      undefined,
      { httpStatus: status },
    );
  }
  return new GatewayFatalError(
    gateway,
    "upgrade_rejected",
    `/ws/${gateway} upgrade refused with HTTP ${status}`,
    undefined,
    body === undefined ? { httpStatus: status } : { httpStatus: status, body: describeText(body) },
  );
}

/** The exchange's error code in a JSON body (any of the spec's envelopes), or undefined. */
function exchangeCode(body: string | undefined): string | undefined {
  if (body === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return undefined;
  }
  const code = readEnvelope(json, false)?.code;
  // Only a code a close reason could carry: it becomes the exit's reason and a log field.
  return code !== undefined && /^[a-z0-9_]{1,64}$/.test(code) ? code : undefined;
}
