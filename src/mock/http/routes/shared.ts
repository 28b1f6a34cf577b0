import { createHash } from "node:crypto";
import type { MockContext } from "../../context.js";
import type { WalletRecord } from "../../directory.js";
import { CursorCodec } from "../cursor.js";
import { OrderSignatureChecker } from "../order-signature.js";
import type { RequestContext } from "../route.js";
import { MarketRecords } from "./market-record.js";
import { WithdrawalStore } from "./withdrawal-store.js";

/** What the route groups share beyond the mock context: built once per httpRoutes call. */
export interface RouteDeps {
  readonly ctx: MockContext;
  readonly cursors: CursorCodec;
  readonly signatures: OrderSignatureChecker;
  readonly markets: MarketRecords;
  readonly withdrawals: WithdrawalStore;
}

/** Builds the shared pieces over a context; the cursor key derives from the scenario's pepper and seed. */
export function routeDeps(ctx: MockContext): RouteDeps {
  const secret = createHash("sha256").update(`mm-mock-cursor\n${ctx.scenario.pepper}\n${ctx.scenario.seed}`);
  return {
    ctx,
    cursors: new CursorCodec(secret.digest("hex")),
    signatures: new OrderSignatureChecker(),
    markets: new MarketRecords(ctx),
    withdrawals: new WithdrawalStore(ctx),
  };
}

/**
 * The effective wallet of an authenticated request. The server authenticates `auth: "key"` routes
 * before their handler runs, so its absence is a wiring bug, not a client error.
 */
export function actingWallet(rc: RequestContext): WalletRecord {
  const identity = rc.identity;
  if (identity === undefined) throw new Error(`route ${rc.path} ran without an identity`);
  return identity.wallet;
}
