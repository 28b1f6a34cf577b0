import { requireApiKey, requirePrivateKey } from "../config/secrets.js";
import type { MmConfig } from "../config/types.js";
import type { Clock } from "../core/clock.js";
import { type BreakerSettings, DEFAULT_BREAKER_SETTINGS } from "../exchange/circuit-breaker.js";
import { ExchangeHttpClient } from "../exchange/client.js";
import { ipPacedGate } from "../exchange/ip-pace.js";
import { DEFAULT_CANCEL_SLOTS } from "../execution/order-queue-types.js";
import type { Logger } from "../observability/logger.js";
import { OrderBuilder } from "../signing/order-builder.js";
import { PrivateKeySigner } from "../signing/private-key-signer.js";

/** The acting wallet sent as X-User-Wallet, for multi_wallet partners only. */
export function userWalletOf(config: MmConfig): string | undefined {
  return config.exchange.partnerKind === "multi_wallet"
    ? (config.exchange.userWallet ?? undefined)
    : undefined;
}

/**
 * The circuit breaker's settings of the keyed client: the configured ones, and how long it stays
 * half-open with no probe before a market status read may take the probe (neverProbeAfterMs): the
 * spec's 60 s, or the reconcile period when longer. The periodic reconcile's reads are the probe
 * that matters on a bot with no order traffic; with a period above the bound, a status read of a
 * failing public market service (the orders working) took the probe first, re-opened the breaker
 * for another pause and failed the cancels with it, again each pause, until a reconcile landed in
 * a half-open window (bfa2141's case back). The keyless client (keylessClient) keeps the 60 s: no
 * reconcile goes through it, so its status reads are all there is to probe.
 * @example exchangeClient's breaker: breakerSettings(config).neverProbeAfterMs // 300000 with reconcile.intervalMs 300000
 */
export function breakerSettings(config: MmConfig): Partial<BreakerSettings> {
  const { neverProbeAfterMs } = DEFAULT_BREAKER_SETTINGS;
  return {
    ...config.circuitBreaker,
    neverProbeAfterMs: Math.max(neverProbeAfterMs, config.reconcile.intervalMs),
  };
}

/**
 * The HTTP client of the configured exchange: one keep-alive pool sized for the order queue's
 * concurrency (plus room for the reconciler's reads), with the configured timeout, retry policy
 * and circuit breaker (breakerSettings). Throws ConfigError when no API key is configured.
 * @example const client = exchangeClient(config, clock, logger); … client.close();
 */
export function exchangeClient(config: MmConfig, clock: Clock, logger: Logger): ExchangeHttpClient {
  const apiKey = requireApiKey(config);
  return new ExchangeHttpClient({
    baseUrl: config.exchange.baseUrl,
    apiKey: apiKey.value.reveal(),
    userWallet: userWalletOf(config),
    clock,
    logger,
    timeoutMs: config.exchange.requestTimeoutMs,
    retry: config.retry,
    breaker: breakerSettings(config),
    // The queue's placement slots and cancel-only slots, and room for the reconciler's reads.
    maxSockets: config.queue.concurrency + DEFAULT_CANCEL_SLOTS + 4,
  });
}

/**
 * A client of the configured exchange that sends no API key, for the spec's public reads ("no key
 * needed; a key is accepted and raises the rate ceiling"): the start's market reads go through it
 * when the exchange refuses them to the key for a scope (marketsAtStart). Without a key they are
 * held to the rate-limit table's IP bucket (GET /api/markets: 600 per 60 s), so each request waits
 * its turn there (ipPacedGate). Same timeout, retry policy and circuit-breaker settings as
 * exchangeClient, but for the half-open bound, the spec's 60 s (breakerSettings); no X-User-Wallet (a public read has no acting wallet).
 * @example const keyless = keylessClient(config, clock, logger); … keyless.close();
 */
export function keylessClient(config: MmConfig, clock: Clock, logger: Logger): ExchangeHttpClient {
  const client = new ExchangeHttpClient({
    baseUrl: config.exchange.baseUrl,
    clock,
    logger,
    timeoutMs: config.exchange.requestTimeoutMs,
    retry: config.retry,
    breaker: config.circuitBreaker,
    maxSockets: 2,
  });
  client.gateRequests(ipPacedGate(clock));
  return client;
}

/**
 * The order builder over the configured wallet key and EIP-712 domain. Throws ConfigError when no
 * private key is configured; the key stays inside the signer (never logged, never serialised).
 */
export function orderBuilder(config: MmConfig): OrderBuilder {
  const key = requirePrivateKey(config);
  const { signing } = config;
  return new OrderBuilder({
    settings: {
      wallet: key.address,
      maker: signing.maker,
      vault: signing.vaultAddress ?? undefined,
      signatureType: signing.signatureType,
      defaultFeeRateBps: signing.defaultFeeRateBps,
    },
    domain: {
      name: signing.domainName,
      version: signing.domainVersion,
      chainId: signing.chainId,
      exchangeContract: signing.exchangeContract,
      negRiskExchangeContract: signing.negRiskExchangeContract,
    },
    signer: new PrivateKeySigner(key.value.reveal(), { noncePool: signing.noncePool }),
  });
}
