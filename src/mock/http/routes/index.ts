import type { MockContext } from "../../context.js";
import type { Route } from "../route.js";
import { cancelRoutes } from "./cancel.js";
import { catalogRoutes } from "./catalog.js";
import { marketActivityRoutes } from "./market-activity.js";
import { marketRoutes } from "./markets.js";
import { meRoutes } from "./me.js";
import { meTradeRoutes } from "./me-trades.js";
import { orderReadRoutes } from "./orders.js";
import { placeRoute } from "./place.js";
import { platformRoutes } from "./platform.js";
import { routeDeps } from "./shared.js";
import { withdrawalRoutes } from "./withdrawals.js";

/**
 * Every HTTP endpoint of the mock exchange that the spec describes and mm's client calls: public
 * market, catalogue and platform reads, probes, order placement and cancellation, order and
 * portfolio reads, and withdrawals. Call once per context: the routes share a cursor codec, a
 * signature checker, market timelines and the withdrawal store.
 * @example const http = await listenHttp(ctx, httpRoutes(ctx));
 */
export function httpRoutes(ctx: MockContext): Route[] {
  const deps = routeDeps(ctx);
  return [
    ...platformRoutes(deps),
    ...marketRoutes(deps),
    ...marketActivityRoutes(deps),
    ...catalogRoutes(deps),
    placeRoute(deps),
    ...cancelRoutes(deps),
    ...orderReadRoutes(deps),
    ...meTradeRoutes(deps),
    ...meRoutes(deps),
    ...withdrawalRoutes(deps),
  ];
}
