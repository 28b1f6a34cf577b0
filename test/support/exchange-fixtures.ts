import type { ServerResponse } from "node:http";
import { pino } from "pino";
import { ExchangeError } from "../../src/exchange/exchange-error.js";
import type { RecordedRequest, TestHandler } from "./http-test-server.js";
import { sendJson } from "./http-test-server.js";

/** A logger that writes nothing. */
/** A call answered 503 exchange_unavailable (retryable: the breaker counts it) at `endpoint`. */
export const fail503At = (endpoint: string) => (): Promise<never> =>
  Promise.reject(
    new ExchangeError({
      code: "exchange_unavailable",
      message: "down",
      outcome: "retryable",
      endpoint,
      httpStatus: 503,
    }),
  );

export const silentLogger = () => pino({ level: "silent" });

/** A well-formed API key: `<svc>_<env>_<keyId>_<secret>` (secret 43 base64url characters). */
export const TEST_KEY_ID = "0123456789abcdef";
export const TEST_KEY_SECRET = "Zk9_vQ2-xR7tLm3NpW8sYc1HdJ6aBe4UgTq5Fo0iKlM";
export const TEST_API_KEY = `mm_live_${TEST_KEY_ID}_${TEST_KEY_SECRET}`;
export const TEST_WALLET = "0x1111111111111111111111111111111111111111";

/** A Market record as the spec's Resources table describes it. */
export function sampleMarket(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: "6f1c1a52-1111-4c53-9d59-0e3e8b6b2a01",
    eventId: "6f1c1a52-2222-4c53-9d59-0e3e8b6b2a01",
    symbol: "BRA-FRA-W",
    slug: "brazil-vs-france-brazil-wins",
    title: "Brazil wins",
    groupItemTitle: null,
    conditionId: `0x${"ab".repeat(32)}`,
    questionId: `0x${"cd".repeat(32)}`,
    yesTokenId: "71321045679252212594626385532706912750332728571942532289631379312455583992563",
    noTokenId: "52114319501245915516055106046884209969926127482827954674443846427813813222426",
    status: "OPEN",
    currentReviewRound: 0,
    outcomeCount: 2,
    outcomeLabels: ["YES", "NO"],
    initialFairValue: "0.5",
    initialOutcomePrices: ["0.5", "0.5"],
    feeTakerBps: 200,
    opensAt: "2026-06-01T00:00:00Z",
    closesAt: null,
    kickoff: null,
    resolutionWindowHours: 24,
    pausedAt: null,
    resolvedAt: null,
    payoutNumerators: null,
    officialDataSource: null,
    sourceMatchId: null,
    resolutionCriteria: null,
    negRiskEligible: false,
    isNewMarketType: false,
    createdAt: "2026-05-01T00:00:00Z",
    updatedAt: "2026-05-01T00:00:00Z",
    outcomePrices: ["0.52", "0.48"],
    ...overrides,
  };
}

/** An Order record. */
export function sampleOrder(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: "ord-1",
    userWallet: TEST_WALLET,
    vault: "0x2222222222222222222222222222222222222222",
    marketId: "6f1c1a52-1111-4c53-9d59-0e3e8b6b2a01",
    side: "buy",
    outcome: "YES",
    price: "0.52",
    quantity: "10",
    filledQty: "0",
    remainingQty: "10",
    expiry: 0,
    type: "limit",
    timeInForce: "gtc",
    status: "OPEN",
    clientOrderId: "mm-a1-b0-1",
    createdAt: "2026-06-01T00:00:00Z",
    updatedAt: "2026-06-01T00:00:00Z",
    ...overrides,
  };
}

/** A Withdrawal record. */
export function sampleWithdrawal(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: "8b9f3a4e-0000-4000-8000-000000000001",
    userWallet: TEST_WALLET,
    amount: "25.5",
    destination: "0x3333333333333333333333333333333333333333",
    status: "PENDING",
    createdAt: "2026-06-01T00:00:00Z",
    updatedAt: "2026-06-01T00:00:00Z",
    ...overrides,
  };
}

/** A REST trade record (GET /api/me/trades). */
export function sampleTrade(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: "trade-1",
    orderId: "ord-1",
    marketId: "6f1c1a52-1111-4c53-9d59-0e3e8b6b2a01",
    vaultAddress: "0x2222222222222222222222222222222222222222",
    fee: "0.0499",
    side: "buy",
    price: "0.52",
    quantity: "10",
    createdAt: "2026-06-01T00:00:01Z",
    ...overrides,
  };
}

/** Headers every exchange response carries (spec convention 8). */
export function standardHeaders(requestId: string, serverTime = Date.now()): Record<string, string> {
  return { "x-request-id": requestId, "x-api-version": "2026-04-01", "x-server-time": String(serverTime) };
}

/** Route handler keyed by `METHOD /path` (path without query); unknown routes get a bare-envelope 404. */
export function router(
  routes: Record<string, (req: RecordedRequest, res: ServerResponse) => void | Promise<void>>,
): TestHandler {
  return (req, res) => {
    const route = routes[`${req.method} ${req.path}`];
    if (route === undefined) {
      sendJson(res, 404, { code: "not_found", message: `no route ${req.method} ${req.path}` });
      return;
    }
    return route(req, res);
  };
}
