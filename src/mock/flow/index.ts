export { flowTakerAccount, fundTakerAccount } from "./accounts.js";
export {
  clampFairValue,
  LOGIT_BOUND,
  logistic,
  logit,
  MAX_LOGIT_SIGMA,
  stepFairValue,
} from "./fair-value.js";
export { ceilToTick, fairMicro, floorToTick, type LevelLayout, levelLayout } from "./layout.js";
export { type LiquidityParams, type MakerCounts, relayMarket, type TokenFair } from "./liquidity.js";
export { exponential, standardNormal, type Uniform, uniformInt } from "./random.js";
export { type FlowHandle, type FlowOptions, type FlowStats, startFlow } from "./start-flow.js";
export {
  drawTaker,
  MAX_TICKS_THROUGH,
  nextArrivalGap,
  type TakerDraw,
  type TakerParams,
  type TakerTarget,
  takerOrder,
} from "./takers.js";
