import { type OpaqueRecord, opaqueList, platformStatus } from "./assumptions.js";
import type { ExchangeCaller } from "./caller.js";
import type { ProbeResult } from "./types.js";

/**
 * Platform reads and service probes. Payloads are not shown in the spec: status is any object (with a
 * boolean `frozen` checked when present, as the WebSocket platform_status example has it), notices a
 * list of objects (bare or `{notices: [...]}`). /health and /ready may answer JSON or text.
 */
export class PlatformApi {
  readonly #caller: ExchangeCaller;

  constructor(caller: ExchangeCaller) {
    this.#caller = caller;
  }

  /** GET /api/platform/status. */
  status(): Promise<OpaqueRecord> {
    return this.#caller.call({ method: "GET", route: "/api/platform/status", parse: platformStatus });
  }

  /** GET /api/platform/notices. */
  notices(): Promise<OpaqueRecord[]> {
    return this.#caller.call({ method: "GET", route: "/api/platform/notices", parse: opaqueList("notices") });
  }

  /** GET /health: liveness. Any 2xx is ok; an error status throws like any other call. */
  health(): Promise<ProbeResult> {
    return this.#probe("/health", []);
  }

  /**
   * GET /ready: readiness. A 503 is an answer ("not ready"), returned with `ok: false` rather than thrown
   * or retried; being an answer, it does not count as a breaker failure.
   * @example if (!(await client.platform.ready()).ok) log.warn("exchange not ready");
   */
  ready(): Promise<ProbeResult> {
    return this.#probe("/ready", [503]);
  }

  #probe(route: string, acceptStatus: readonly number[]): Promise<ProbeResult> {
    return this.#caller.call({
      method: "GET",
      route,
      allowText: true,
      acceptStatus,
      parse: (body, _p, res) => ({ ok: res.status >= 200 && res.status < 300, httpStatus: res.status, body }),
    });
  }
}
