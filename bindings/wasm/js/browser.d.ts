// `swaproute/browser`, and `swaproute` where a bundler resolves the
// "browser" condition: the browser build (pkg-browser/, under 300 KB) has
// ranking, estimates and amounts only. Call `await init()` first. The rest
// of the API is `swaproute/full` (the whole build, also `init()` first).
export {
  default,
  init,
  initSync,
  SwaprouteError,
  Rates,
  selectRoutes,
  bestRoute,
  topRoutes,
  estimateExactOut,
  parseAmount,
  decimalFromJsonNumber,
  MAX_RATES,
} from "./index.js";
export type * from "./index.js";
