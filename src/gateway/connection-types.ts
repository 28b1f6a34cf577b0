import type { GatewayFatalError } from "./errors.js";

/** The `connected` frame's data (spec: /ws/market gateway, authMethod, protocolVersion 2, partnerId). */
export interface ConnectedInfo {
  readonly gateway: string | undefined;
  readonly authMethod: string | undefined;
  readonly protocolVersion: number | undefined;
  readonly partnerId: string | undefined;
  /** The whole data object (the /ws/user connect frame is not shown in the spec). */
  readonly data: Readonly<Record<string, unknown>>;
}

/** Why a connection ended. */
export type CloseCause = "closed" | "watchdog" | "command_timeout" | "connect_timeout" | "client";

/** How a connection ended: the close frame, whether reconnecting can help, and why. */
export interface ClosedInfo {
  readonly code: number;
  readonly reason: string;
  readonly cause: CloseCause;
  /** Set when the close is fatal (4401, a handshake 1008, a refused upgrade): do not reconnect. */
  readonly fatal: GatewayFatalError | undefined;
  /** True when the `connected` frame had arrived. */
  readonly wasOpen: boolean;
  /** The socket's first error, when it had one (e.g. `connect ECONNREFUSED 127.0.0.1:1`). */
  readonly error?: string;
}

/** What a connection reports to its owner. */
export interface ConnectionHooks {
  /** The `connected` frame arrived (synchronously, before open() resolves). */
  onOpen?(info: ConnectedInfo): void;
  /** An event push (validated by the owner), with its local receive time on the Clock. */
  onPush(frame: Record<string, unknown>, recvTs: number): void;
  /** The socket ended (called exactly once). */
  onClosed(info: ClosedInfo): void;
  /** A pong arrived. */
  onPong?(rttMs: number, serverTs: number | undefined): void;
  /** A command sent without awaiting its reply (post) was answered with an `error`. */
  onPostRefused?(cmd: string, code: string): void;
}
