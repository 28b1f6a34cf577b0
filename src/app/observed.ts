import { Registry } from "prom-client";
import { ConfigError, type ConfigIssue } from "../config/errors.js";
import type { MmConfig } from "../config/types.js";
import type { Readiness } from "../observability/http-server.js";
import { type ObservabilityServer, startObservabilityServer } from "../observability/http-server.js";
import type { Logger } from "../observability/logger.js";
import { createMetrics, type Metrics } from "../observability/metrics.js";
import { readinessOf } from "../observability/readiness.js";
import type { Daemon } from "./daemon.js";

/**
 * Runs a daemon with its operator endpoints: Prometheus metrics on an injected registry, and the
 * /metrics, /health and /ready server on metrics.host:metrics.port (loopback by default). /ready
 * answers 503 with the reason until the engine has reconciled the account, every book is synced
 * and none is refused for good (readinessOf). The server closes when the daemon is done.
 *
 * A busy port is a configuration error (exit 2) for `mm run`, where a scraper expects the
 * configured port, and for `mm paper` when the operator set metrics.port; otherwise paper mode
 * (`freePortWhenBusy`: the default port, nobody asked for it) takes a free port instead and says so. An
 * address that cannot be bound (not this machine's, unresolvable, a privileged port) is a
 * configuration error naming metrics.host or metrics.port in both.
 *
 * `problems` are the configuration problems the caller found before (missing start settings, the
 * journal's account run by another mm, a scenario paper cannot trade with): they and a bind problem are thrown together in one
 * ConfigError, before anything is logged, so the first line an operator sees of a run that cannot
 * start is never "metrics at …", and one attempt names every problem.
 *
 * `sources` say where the operator set metrics.host and metrics.port (settingSource: `from env
 * MM_METRICS_PORT`, `in <file>`), for a bind problem to name as the load's issues do: a port that is
 * busy may come from a variable the operator forgot was exported.
 * @example const d = await observed(config, logger, false, (metrics) => startDaemon(config, { logger, metrics }), startSettingsIssues(config));
 */
export async function observed<D extends Pick<Daemon, "engine" | "feeds" | "stop" | "done">>(
  config: MmConfig,
  logger: Logger,
  freePortWhenBusy: boolean,
  start: (metrics: Metrics) => Promise<D>,
  problems: readonly ConfigIssue[] = [],
  sources: MetricsSources = {},
): Promise<D & { readonly observability: { readonly url: string; readonly metrics: Metrics } }> {
  const registry = new Registry();
  let readiness: () => Readiness = () => ({ ready: false, reason: "starting" });
  let server: ObservabilityServer;
  let fellBack: boolean;
  try {
    ({ server, fellBack } = await listen(config, registry, () => readiness(), freePortWhenBusy, sources));
  } catch (err) {
    if (err instanceof ConfigError && problems.length > 0)
      throw new ConfigError([...problems, ...err.issues]);
    throw err;
  }
  if (problems.length > 0) {
    await server.close();
    throw new ConfigError(problems);
  }
  if (fellBack) {
    // Said only for a run that starts, so a scraper left pointed at the default port is not a mystery.
    const { host, port } = config.metrics;
    logger.info({ busy: port }, `metrics: port ${port} on ${host} is busy: a free port is taken`);
  }
  // After the listen: its failure leaves no metrics timers to stop.
  const metrics = createMetrics({
    registry,
    maxMarketLabels: config.metrics.maxMarketLabels,
    reconcileIntervalMs: config.reconcile.intervalMs,
  });
  logger.info(
    { metrics: `${server.url}/metrics` },
    `metrics at ${server.url}/metrics, liveness ${server.url}/health, readiness ${server.url}/ready`,
  );
  let daemon: D;
  try {
    daemon = await start(metrics);
  } catch (err) {
    metrics.close();
    await server.close();
    throw err;
  }
  readiness = readinessOf({ trackers: [daemon.feeds.market.tracker], engine: daemon.engine });
  const done = daemon.done.finally(async () => {
    metrics.close();
    await server.close();
  });
  return { ...daemon, done, observability: { url: server.url, metrics } };
}

async function listen(
  config: MmConfig,
  registry: Registry,
  readiness: () => Readiness,
  freePortWhenBusy: boolean,
  sources: MetricsSources,
): Promise<{ readonly server: ObservabilityServer; readonly fellBack: boolean }> {
  const opts = { host: config.metrics.host, port: config.metrics.port, registry, readiness };
  try {
    return { server: await startObservabilityServer(opts), fellBack: false };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE" && freePortWhenBusy)
      return { server: await startObservabilityServer({ ...opts, port: 0 }), fellBack: true };
    const issue = bindIssue(code, config.metrics.host, config.metrics.port);
    if (issue === undefined) throw err;
    const where = issue.field === "metrics.port" ? sources.port : sources.host;
    throw new ConfigError([
      where === undefined ? issue : { ...issue, message: `${issue.message} (${where})` },
    ]);
  }
}

/** Where the operator set metrics.host and metrics.port (settingSource); absent: their defaults. */
export interface MetricsSources {
  readonly host?: string | undefined;
  readonly port?: string | undefined;
}

/**
 * Why metrics.host:metrics.port cannot be bound, as a config issue on the setting at fault, for the
 * listen errors a setting causes (anything else is unexpected and propagates).
 */
function bindIssue(code: string | undefined, host: string, port: number): ConfigIssue | undefined {
  switch (code) {
    case "EADDRINUSE":
      return { field: "metrics.port", message: `port ${port} on ${host} is in use` };
    case "EACCES":
      return {
        field: "metrics.port",
        message: `port ${port} on ${host} needs privileges this process lacks (EACCES): use a port ≥ 1024`,
      };
    case "EADDRNOTAVAIL":
      return {
        field: "metrics.host",
        message: `${host} is not an address of this machine (EADDRNOTAVAIL): use one of its addresses, 127.0.0.1 or 0.0.0.0`,
      };
    case "EAFNOSUPPORT":
      return { field: "metrics.host", message: `${host}: this machine has no IPv6 (EAFNOSUPPORT)` };
    case "ENOTFOUND":
    case "EAI_AGAIN":
    case "EAI_FAIL":
      return { field: "metrics.host", message: `cannot resolve ${host} (${code})` };
    default:
      return undefined;
  }
}
