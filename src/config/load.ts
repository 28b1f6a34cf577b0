import { resolve } from "node:path";
import convict from "convict";
import { getAddress } from "viem";
import { canonicalBaseUrl } from "../core/base-url.js";
import type { Address } from "../core/types.js";
import { expandSecrets, scrub } from "../observability/logger.js";
import { withRiskDefaults } from "../risk/config.js";
import { crossCheck } from "./cross-checks.js";
import { MAX_CONFIG_DEPTH, textDepth } from "./depth.js";
import { unparsableJsonEnv } from "./env-json.js";
import { unknownEnvVars } from "./env-names.js";
import { ConfigError, type ConfigIssue } from "./errors.js";
import { readConfigFile } from "./files.js";
import { jsonTypeOf, registerFormats } from "./formats.js";
import { JsonLayers } from "./layering.js";
import { defaultConfigFile } from "./paths.js";
import { type RawConfig, schema, settings } from "./schema.js";
import { resolveSecrets } from "./secrets.js";
import type { MmConfig } from "./types.js";
import { validateSettings } from "./validate.js";

export interface LoadOptions {
  /** Config files layered after config/default.json, in order (later wins). Relative to `cwd`. */
  readonly files?: readonly string[];
  /** Environment holding MM_* overrides and the secrets; pass process.env in production. */
  readonly env: NodeJS.ProcessEnv;
  /** Base for relative paths (config files, key files); process.cwd() by default. */
  readonly cwd?: string;
}

/**
 * Loads the configuration: schema defaults, then config/default.json (found from the package root,
 * not the cwd), then each file in order, then MM_* environment overrides; validates every setting
 * and the rules between them; resolves the secrets. An MM_* variable close to a setting's own (a
 * typo such as MM_SHUTDOWN_TIMEOUT) is a problem too. All problems are gathered into one ConfigError
 * (code `config_invalid`) with one line per bad field and no secret value in it.
 * @example
 * const config = loadConfig({ files: ["config/live.json"], env: process.env });
 * config.exchange.baseUrl; config.secrets.apiKey?.keyId;
 */
export function loadConfig(options: LoadOptions): MmConfig {
  registerFormats();
  const cwd = options.cwd ?? process.cwd();
  const env = { ...options.env };
  const files = [defaultConfigFile(), ...(options.files ?? []).map((f) => resolve(cwd, f))];
  const issues: ConfigIssue[] = [];
  const source = new Map<string, string>();
  issues.push(...dropDeepEnv(env), ...nearMissEnv(env));
  const unparsable = unparsableJsonEnv(env);
  issues.push(...unparsable.issues);

  const conf = convict<RawConfig>(schema, { env, args: [] });
  const json = new JsonLayers();
  for (const file of files) {
    const checked = readConfigFile(file);
    issues.push(...checked.issues);
    for (const path of checked.paths) source.set(path, `in ${file}`);
    json.take(checked.data);
    conf.load(checked.data);
  }
  json.apply(conf, env);
  for (const { path, spec } of settings()) {
    if (env[spec.env] !== undefined) source.set(path, `from env ${spec.env}`);
  }

  const raw = conf.getProperties();
  const { issues: settingIssues, bad } = validateSettings(raw, source);
  issues.push(...settingIssues);
  for (const path of unparsable.paths) bad.add(path);

  const resolved = resolveSecrets(raw.secrets, cwd);
  issues.push(...resolved.issues);
  issues.push(...crossCheck(raw, bad, resolved.secrets.privateKey?.address));

  if (issues.length === 0) {
    // Our per-setting pass mirrors convict's; its strict validation stays as a backstop.
    try {
      conf.validate({ allowed: "strict", output: () => undefined });
    } catch (e) {
      issues.push({ field: "config", message: (e as Error).message.replace(/\n/g, "; ") });
    }
  }
  if (issues.length > 0) {
    const secrets = expandSecrets(resolved.seen);
    throw new ConfigError(issues.map((i) => ({ field: i.field, message: scrub(i.message, secrets) })));
  }
  // config/default.json holds the defaults: a value from it was set by nobody.
  const defaults = `in ${files[0]}`;
  const setBy = Object.fromEntries([...source].filter(([, where]) => where !== defaults));
  return deepFreeze({ ...typed(raw, files, resolved.secrets), setBy });
}

/**
 * JSON-valued MM_* variables nested too deep for convict's recursive parse and clone: removed from
 * `env` (so they never reach convict) and reported on their setting.
 */
function dropDeepEnv(env: NodeJS.ProcessEnv): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  for (const { path, spec } of settings()) {
    const raw = env[spec.env];
    if (raw === undefined || !["object", "json", "array"].includes(jsonTypeOf(spec.format))) continue;
    if (textDepth(raw) <= MAX_CONFIG_DEPTH) continue;
    issues.push({
      field: path,
      message: `is nested more than ${MAX_CONFIG_DEPTH} levels deep (from env ${spec.env})`,
    });
    delete env[spec.env];
  }
  return issues;
}

/**
 * MM_* variables that name no setting but come close to one's (env-names.ts): refused like an
 * unknown key in a file. So close a name was written for mm, and ignoring it would run with a
 * value the operator believes replaced (a risk limit, a timeout). Variables far from every setting
 * may be another program's; the CLI warns about those (cli/config-option.ts).
 */
function nearMissEnv(env: NodeJS.ProcessEnv): ConfigIssue[] {
  return unknownEnvVars(env).flatMap(({ name, meant }) =>
    meant === null
      ? []
      : [{ field: name, message: `names no setting: did you mean ${meant}? (unset or rename it)` }],
  );
}

const address = (s: string): Address => getAddress(s);
const optionalAddress = (s: string): Address | null => (s === "" ? null : getAddress(s));

function typed(
  raw: RawConfig,
  files: readonly string[],
  secrets: MmConfig["secrets"],
): Omit<MmConfig, "setBy"> {
  const { exchange, signing, log } = raw;
  return {
    files,
    exchange: {
      ...exchange,
      // One spelling of each (canonicalBaseUrl): the HTTP client, the WebSocket URLs, the
      // journal's account and its run lock all see the same exchange the same way.
      baseUrl: canonicalBaseUrl(exchange.baseUrl),
      wsUrl: canonicalBaseUrl(exchange.wsUrl),
      userWallet: optionalAddress(exchange.userWallet),
    },
    retry: { ...raw.retry },
    circuitBreaker: { ...raw.circuitBreaker },
    signing: {
      ...signing,
      exchangeContract: address(signing.exchangeContract),
      negRiskExchangeContract: address(signing.negRiskExchangeContract),
      vaultAddress: optionalAddress(signing.vaultAddress),
    },
    markets: {
      ...raw.markets,
      tickSizes: { ...raw.markets.tickSizes },
      minOrderSizes: { ...raw.markets.minOrderSizes },
    },
    log: { level: log.level, pretty: log.pretty === "auto" ? "auto" : log.pretty === "true" },
    secrets,
    engine: {
      ...raw.engine,
      markets: [...raw.engine.markets],
      strategyByMarket: { ...raw.engine.strategyByMarket },
      session: raw.engine.session === "" ? null : raw.engine.session,
    },
    // MM_RISK replaces the whole tree and parseRiskConfig fills what it omits: hold those limits
    // too, so `mm config` shows every limit in force (the daemon parses the same values).
    risk: withRiskDefaults(raw.risk),
    queue: { ...raw.queue },
    reconcile: { ...raw.reconcile },
    shutdown: { ...raw.shutdown },
    metrics: { ...raw.metrics },
    journal: { ...raw.journal, enabled: raw.journal.enabled === "true" },
  };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
