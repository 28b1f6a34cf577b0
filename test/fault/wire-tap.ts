import { Agent, createServer, type IncomingMessage, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One HTTP exchange the bot had with the exchange, as seen on the wire between them. */
export interface TappedRequest {
  readonly method: string;
  readonly path: string;
  /** Date.now() when the request reached the tap. */
  readonly startedAt: number;
  /** clientOrderId of a POST /api/orders/place body; undefined elsewhere. */
  readonly clientOrderId: string | undefined;
  /** marketId and outcome of a POST /api/orders/place body; undefined elsewhere. */
  readonly placement: { readonly marketId: string; readonly outcome: string } | undefined;
  /** Status the exchange answered; undefined while unanswered (or never answered: hung, aborted). */
  status: number | undefined;
  /** Date.now() when the answer was passed back to the bot. */
  answeredAt: number | undefined;
  /** Placement answers: the body's status (OPEN, FILLED, REJECTED…). */
  placementStatus: string | undefined;
  /** Error answers: the envelope's code (nested `error.code` or bare `code`). */
  errorCode: string | undefined;
  /** The bot gave up on it (closed the connection) before any answer came. */
  abandoned: boolean;
}

/** A recording HTTP proxy on 127.0.0.1 in front of the mock exchange. */
export interface WireTap {
  /** Base URL for the bot's exchange.baseUrl. */
  readonly url: string;
  readonly requests: readonly TappedRequest[];
  /** True when every request so far has been answered or abandoned. */
  idle(): boolean;
  close(): Promise<void>;
}

/**
 * Starts a forwarding proxy to `target` that records every request: the fault suite's independent
 * witness of what the bot sent, so "never resent" is checked on the wire, not on the bot's word (the
 * mock deduplicates clientOrderIds, so its order list alone cannot show a resend). Keep-alive on both
 * sides; a request the bot abandons (its timeout) is aborted upstream too.
 */
export async function startWireTap(target: string): Promise<WireTap> {
  const upstream = new URL(target);
  const agent = new Agent({ keepAlive: true });
  const requests: TappedRequest[] = [];
  const server: Server = createServer((req, res) => {
    void readBody(req).then((body) => {
      const rec: TappedRequest = {
        method: req.method ?? "GET",
        path: (req.url ?? "/").split("?")[0] ?? "/",
        startedAt: Date.now(),
        ...placementOf(req, body),
        status: undefined,
        answeredAt: undefined,
        placementStatus: undefined,
        errorCode: undefined,
        abandoned: false,
      };
      requests.push(rec);
      const up = request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: upstream.host },
          agent,
        },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on("data", (c: Buffer) => chunks.push(c));
          answer.on("end", () => {
            const text = Buffer.concat(chunks);
            rec.status = answer.statusCode;
            rec.answeredAt = Date.now();
            if (rec.clientOrderId !== undefined) rec.placementStatus = statusField(text);
            if ((answer.statusCode ?? 0) >= 400) rec.errorCode = codeField(text);
            if (res.destroyed) return;
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            res.end(text);
          });
        },
      );
      up.on("error", () => {
        if (!res.headersSent && !res.destroyed) res.destroy();
      });
      // The bot closed its side before the answer: a timeout (ambiguous for it); let the mock go too.
      res.on("close", () => {
        if (rec.status === undefined) {
          rec.abandoned = true;
          up.destroy();
        }
      });
      up.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    idle: () => requests.every((r) => r.status !== undefined || r.abandoned),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", () => resolve(Buffer.concat(chunks)));
  });
}

function placementOf(req: IncomingMessage, body: Buffer): Pick<TappedRequest, "clientOrderId" | "placement"> {
  if (req.method !== "POST" || !(req.url ?? "").startsWith("/api/orders/place")) {
    return { clientOrderId: undefined, placement: undefined };
  }
  try {
    const b = JSON.parse(body.toString("utf8")) as Record<string, unknown>;
    return {
      clientOrderId: typeof b.clientOrderId === "string" ? b.clientOrderId : "",
      placement: { marketId: String(b.marketId), outcome: String(b.outcome) },
    };
  } catch {
    return { clientOrderId: "", placement: undefined };
  }
}

function codeField(body: Buffer): string | undefined {
  try {
    const b = JSON.parse(body.toString("utf8")) as { code?: unknown; error?: { code?: unknown } };
    const c = b.error?.code ?? b.code;
    return typeof c === "string" ? c : undefined;
  } catch {
    return undefined;
  }
}

function statusField(body: Buffer): string | undefined {
  try {
    const s = (JSON.parse(body.toString("utf8")) as { status?: unknown }).status;
    return typeof s === "string" ? s : undefined;
  } catch {
    return undefined;
  }
}
