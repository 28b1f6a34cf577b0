import type { IncomingMessage } from "node:http";

/** The API version tag every response carries (spec: Versioning). */
export const API_VERSION = "2026-04-01";

/** Headers browsers may read, per the spec's CORS convention. */
export const EXPOSED_HEADERS = [
  "X-API-Version",
  "X-Server-Time",
  "X-Request-Id",
  "X-Trace-Id",
  "X-RateLimit-Limit",
  "X-RateLimit-Remaining",
  "X-RateLimit-Reset",
  "Retry-After",
].join(", ");

/**
 * The client IP as the spec's rate limiter sees it: the real peer, or the first X-Forwarded-For
 * hop when the peer is the trusted ingress (for the mock: a loopback peer).
 */
export function clientIp(req: IncomingMessage): string {
  const peer = normaliseIp(req.socket.remoteAddress ?? "");
  const xff = req.headers["x-forwarded-for"];
  if (typeof xff === "string" && xff !== "" && isLoopback(peer)) {
    return normaliseIp((xff.split(",")[0] ?? "").trim());
  }
  return peer;
}

/** The socket peer address, IPv4-mapped IPv6 unwrapped. */
export function peerIp(req: IncomingMessage): string {
  return normaliseIp(req.socket.remoteAddress ?? "");
}

function normaliseIp(ip: string): string {
  return ip.startsWith("::ffff:") ? ip.slice(7) : ip;
}

/** True for 127.0.0.0/8 and ::1. */
export function isLoopback(ip: string): boolean {
  return ip === "::1" || ip.startsWith("127.");
}

/** First value of a header that may repeat. */
export function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

/** Reads a request body as text, up to `maxBytes` (then refuses with undefined). */
export async function readBody(req: IncomingMessage, maxBytes = 1 << 20): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}
