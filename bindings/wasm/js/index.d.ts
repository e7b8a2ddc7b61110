// Types of the swaproute package. Every shape here is the JSON the Rust
// crate writes (its `Serialize` impls) or reads; `test/types.ts` uses each
// one and `tsc --noEmit` (in .ci/run) checks it, and `test/api.test.mjs`
// checks the objects the package really returns against these keys.

/** A decimal, always as text: `"0.5"`, `"16.49807617"`. Never a JS number. */
export type DecimalText = string;

/** Milliseconds since the Unix epoch, e.g. `Date.now()`. */
export type EpochMillis = number;

/**
 * An instant a request gives: milliseconds since the Unix epoch, or a `Date`
 * (taken as its `getTime()`; an invalid `Date` is refused).
 */
export type Instant = EpochMillis | Date;

export type SwapMode = "ExactIn" | "ExactOut";

/** A rate as `GET /v3/pairs/:pairId/rates` returns it. */
export interface Rate {
  amount: AssetAmount;
  expiry: EpochMillis;
  id: string;
  max: AssetAmount;
  min: AssetAmount;
  minerFee: AssetAmount;
  pairId: string;
  features?: string[] | null;
  sponsoredByCampaignId?: string | null;
}

export interface AssetAmount {
  assetId: string;
  /** A JSON number, or a decimal string where no double holds the value. */
  value: number | string;
}

/** The service's error body, as the service sends it. */
export interface ServiceErrorBody {
  status: number;
  code: string;
  details: string;
  orderId?: string;
  min?: DecimalText;
  max?: DecimalText;
  /** `SLIPPAGE_EXCEEDED` (ruling 33): the least output (ExactIn) or most input (ExactOut) the slippage allows. */
  bound?: DecimalText;
  /** `SLIPPAGE_EXCEEDED`: what the plan gives, the promised output (ExactIn) or the order's amount (ExactOut). */
  available?: DecimalText;
}

/** One side of a required-input "no route" (ruling 34): the rate, what it needs, its limit, the `toAmount` that works. */
export interface NearestRoute {
  rateId: string;
  /** The order amount the request needs there (from asset). */
  required: DecimalText;
  /** The limit it fails. */
  limit: DecimalText;
  /** The largest (above) or smallest (below) `toAmount` that works there, or `null` when none does. */
  toAmount: DecimalText | null;
}

/** Why an ExactOut plan found no route: every candidate's order amount lies outside its limits (ruling 34). */
export interface RequiredInputNoRoute {
  toAmount: DecimalText;
  toAssetId: string;
  fromAssetId: string;
  /** The nearest route whose need is above its max, or `null`. */
  above: NearestRoute | null;
  /** The nearest route whose need is below its min, or `null`. */
  below: NearestRoute | null;
}

/** The amount that works nearest a "no route" (ruling 38 amending ruling 10). */
export interface WorkingAmount {
  /** `"fromAmount"` (ExactIn) or `"toAmount"` (ExactOut). */
  field: "fromAmount" | "toAmount";
  amount: DecimalText;
  /** The from asset for `fromAmount`, the to asset for `toAmount`. */
  asset: string;
}

/** The service's error body, plus what a caller can act on. */
export interface ErrorBody {
  status: number;
  code: string;
  details: string;
  min?: DecimalText;
  max?: DecimalText;
  orderId?: string;
  /** `SLIPPAGE_EXCEEDED` (ruling 33): the bound the slippage sets. */
  bound?: DecimalText;
  /** `SLIPPAGE_EXCEEDED`: what the selected route gives. */
  available?: DecimalText;
  /** `planFixedOrder`, `AMOUNT_ABOVE_LIMIT`/`AMOUNT_BELOW_LIMIT` of ExactOut: the nearest routes on each side. */
  requiredInput?: RequiredInputNoRoute;
  /** "No route" (ranking, estimate, a chain's first leg): the smallest (largest) amount that works. */
  working?: WorkingAmount;
  /** "No route" under the caller's floors: the floor that refused the nearest route (`"BELOW_DUST"`, `"FEE_TOO_LARGE"`, `"FEE_SHARE_TOO_LARGE"`). */
  floor?: string;
  /**
   * "No route" of a ranking call (`best`, `top`, `split`, `bestChain`):
   * until when it holds (ruling 50), epoch ms; `null` when no rate is left
   * to expire (then it holds for good).
   */
  validUntil?: EpochMillis | null;
  /** The request field the error names. */
  field?: string;
  /** Order bodies: every problem, in priority order (`field`/`code` of the first is the error's). */
  errors?: { field: string; code: string; details: string }[];
  /** A stable code of the finer reason, e.g. `"MIXED_PAIRS"`, `"INVALID_CHARACTER"`. */
  reason?: string;
  /** Byte offset the reason points at. */
  at?: number;
  /**
   * JSON text the caller passed (a string argument) that does not decode:
   * where, as line (from 1) and column (bytes on that line). Never set for
   * objects: their errors name the path instead (`request.now`).
   */
  line?: number;
  column?: number;
  /** The character found at `at` (amount grammar). */
  found?: string;
  /** CAIP: the component the reason concerns. */
  component?: string;
  /** `Forwarded`: the reason of an `INVALID_NODE`. */
  node?: string;
}

/** Thrown by every function: an `Error` carrying the error body's keys. */
export class SwaprouteError extends Error implements ErrorBody {
  constructor(body: ErrorBody);
  /** The service's error body alone: `res.status(e.status).json(e.body)`. */
  readonly body: ServiceErrorBody;
  status: number;
  code: string;
  details: string;
  min?: DecimalText;
  max?: DecimalText;
  orderId?: string;
  bound?: DecimalText;
  available?: DecimalText;
  requiredInput?: RequiredInputNoRoute;
  working?: WorkingAmount;
  floor?: string;
  validUntil?: EpochMillis | null;
  field?: string;
  errors?: { field: string; code: string; details: string }[];
  reason?: string;
  at?: number;
  line?: number;
  column?: number;
  found?: string;
  component?: string;
  node?: string;
}

/** Loads the WebAssembly module (browsers; Node's entry point needs no call). */
export default function init(
  source?: { module_or_path?: RequestInfo | URL | Response | BufferSource | WebAssembly.Module },
): Promise<unknown>;
export function init(
  source?: { module_or_path?: RequestInfo | URL | Response | BufferSource | WebAssembly.Module },
): Promise<unknown>;
/** Loads the WebAssembly module from its bytes, synchronously. */
export function initSync(source: { module: BufferSource | WebAssembly.Module }): unknown;

// --- single pair -------------------------------------------------------------

export interface RouteRequest {
  /** Default `"ExactIn"`. */
  mode?: SwapMode;
  /** The amount sent (ExactIn), or the client's estimate of it (ExactOut): limits are checked against it. */
  fromAmount: DecimalText;
  /** ExactOut: the exact amount received (required). ExactIn: optional, never affects anything. */
  toAmount?: DecimalText;
  now: Instant;
  /** Campaign id to its per-swap limit (from asset): caps sponsored variants' max. */
  campaigns?: Record<string, DecimalText>;
  /** `"strict"`: a route whose required input lies outside its limits is ineligible. Default `"spec"`. */
  limitPolicy?: "spec" | "strict";
  /** The caller's economic floors (ruling 38); none by default. */
  floors?: Floors;
  /** The caller's price guard (ruling 40); off by default. */
  priceGuard?: PriceGuard;
}

/**
 * The price guard (ruling 40): a rate whose multiplier `m` deviates from
 * the reference `r` by more than `maxDeviationBps`, `|m − r| × 10000 >
 * maxDeviationBps × r` (exactly), is rejected `PRICE_OUTLIER`. The
 * reference is `reference`, or else the exact median multiplier of the
 * response's valid, unexpired rates (the mean of the two middle ones for an
 * even count). When every route left is an outlier, "no route" is
 * `PRICE_OUTLIER` (502).
 */
export interface PriceGuard {
  /** A whole number of basis points, 0 to 4294967295 (inclusive bound). */
  maxDeviationBps: number;
  /** The reference multiplier, above 0; the median when absent. */
  reference?: DecimalText;
}

/**
 * Economic floors (ruling 38), each optional, compared exactly. A route
 * held to one is rejected with its reason (`BELOW_DUST`, `FEE_TOO_LARGE`,
 * `FEE_SHARE_TOO_LARGE`); when nothing is left, "no route" is
 * `INSUFFICIENT_LIQUIDITY`.
 */
export interface Floors {
  /** The net output must be at least this (to asset). */
  dust?: DecimalText;
  /** The net output must be at least this many times the miner fee. */
  feeMultiple?: DecimalText;
  /** `minerFee × 10000 ≤ maxFeeShareBps × amount × multiplier` (0 admits fee-free rates only). */
  maxFeeShareBps?: number;
}

export type RequiredInputLimits =
  | { status: "within" }
  | { status: "belowMin" | "aboveMax"; limit: DecimalText };

export interface Route {
  /** `true` when the rates' ExactOut capability was assumed by the caller (`Rates#assumeExactOut`, ruling 4); absent otherwise. */
  exactOutAssumed?: true;
  rateId: string;
  /** `fromAmount × multiplier − minerFee`, exact. */
  netOutput: DecimalText;
  /** ExactOut: `ceil8((toAmount + minerFee) / multiplier)`, 8 places; `null` in ExactIn. */
  requiredInput: DecimalText | null;
  requiredInputLimits: RequiredInputLimits | null;
  sponsoredByCampaignId: string | null;
}

/**
 * `best`/`bestRoute`: the best route and until when it is the answer
 * (ruling 50): epoch ms, the first instant it could change (its rate's
 * expiry, or earlier when a median price guard's voter expires). A route
 * found always has one.
 */
export interface BestRoute extends Route {
  validUntil: EpochMillis;
}

/**
 * `top`/`topRoutes`: the best `k` routes, best first, and until when that
 * list holds (ruling 50: the first expiry among them, or a median guard's
 * voter's; with `k = 0`, as `best`'s), `null` when no rate is left to expire.
 */
export interface TopRoutes {
  /** `true` when the rates' ExactOut capability was assumed by the caller (`Rates#assumeExactOut`, ruling 4); absent otherwise. */
  exactOutAssumed?: true;
  routes: Route[];
  validUntil: EpochMillis | null;
}

export interface RankedRoute extends Route {
  /** 1 for the best. */
  rank: number;
}

export type RejectReason =
  | "INVALID_RATE"
  | "EXPIRED"
  | "EXACT_OUT_UNSUPPORTED"
  | "SPONSORED_IN_EXACT_OUT"
  | "CAMPAIGN_LIMIT_BELOW_MIN"
  | "BELOW_MIN"
  | "ABOVE_MAX"
  | "OVERFLOW"
  | "NO_OUTPUT"
  | "BELOW_DUST"
  | "FEE_TOO_LARGE"
  | "FEE_SHARE_TOO_LARGE"
  | "PRICE_OUTLIER"
  | "REQUIRED_INPUT_BELOW_MIN"
  | "REQUIRED_INPUT_ABOVE_MAX";

export interface Rejection {
  rateId: string;
  reason: RejectReason;
  /** The min or (effective) max the amount failed, else `null`. */
  limit: DecimalText | null;
  /** Human text. */
  detail: string;
  /** `PRICE_OUTLIER` only: the rate's multiplier. */
  multiplier?: DecimalText;
  /** `PRICE_OUTLIER` only: the reference, exact (the median may have a 29th place). */
  reference?: DecimalText;
  /** `PRICE_OUTLIER` only: the deviation in basis points, rounded up to 2 places; `null` past 10^26. */
  deviationBps?: DecimalText | null;
  /** `PRICE_OUTLIER` only: the guard's bound. */
  maxDeviationBps?: number;
}

export interface Selection {
  /** `true` when the rates' ExactOut capability was assumed by the caller (`Rates#assumeExactOut`, ruling 4); absent otherwise. */
  exactOutAssumed?: true;
  mode: SwapMode;
  fromAmount: DecimalText;
  toAmount: DecimalText | null;
  /** Every eligible rate, best first. */
  routes: RankedRoute[];
  /** Every other rate, in input order. */
  rejected: Rejection[];
  /** The error a server answers with when `routes` is empty, else `null`. */
  noRoute: ErrorBody | null;
  /**
   * Until when this whole answer holds (ruling 50): the first expiry of a
   * rate live at `now` (that rate's line changes); `null` when none is.
   */
  validUntil: EpochMillis | null;
}

export interface EstimateRequest {
  toAmount: DecimalText;
  now: Instant;
  /** The caller's economic floors (ruling 38), held at each rate's required input; none by default. */
  floors?: Floors;
  /** The caller's price guard (rulings 40-42), as `route` applies it; none by default. */
  priceGuard?: PriceGuard;
}

export interface Estimate {
  /** `true` when the rates' ExactOut capability was assumed by the caller (`Rates#assumeExactOut`, ruling 4); absent otherwise. */
  exactOutAssumed?: true;
  /** The least input that buys `toAmount`, 8 places. */
  fromAmount: DecimalText;
  rateId: string;
}

/** The decimals of a pair's two assets (`decimals` of `GET /v3/assets`). */
export interface PairDecimals {
  from: number;
  to: number;
}

/** What `feasibleAmounts` asks (ruling 38). */
export interface FeasibleQuery {
  /** Default `"ExactIn"`: the amounts are `fromAmount`s; in ExactOut `toAmount`s. */
  mode?: SwapMode;
  now: Instant;
  campaigns?: Record<string, DecimalText>;
  floors?: Floors;
  /** `"spec"` (default) or `"strict"` (ruling 23). */
  limitPolicy?: "spec" | "strict";
  /** The caller's price guard (rulings 40-42): an amount works only through a rate the guard admits, as `route` ranks it. */
  priceGuard?: PriceGuard;
  /** Amounts get `min(8, decimals)` places of their asset (else 8). */
  decimals?: PairDecimals;
  /** A balance in the unit of the amounts (`"0"` answers as none). */
  spendable?: DecimalText;
}

/** An amount and the rate that serves it. */
export interface ServedAmount {
  /** On the grid: `"5.00000000"`, or `"5.00"` with 2 decimals. */
  amount: DecimalText;
  rateId: string;
}

/** The amounts that work (ruling 38), the crate's `FeasibleReport`. */
export interface FeasibleReport {
  mode: SwapMode;
  /** The smallest amount that works, or `null` when none does. */
  min: ServedAmount | null;
  max: ServedAmount | null;
  /** Every amount that works, as sorted disjoint ranges (inclusive). */
  ranges: { from: DecimalText; to: DecimalText }[];
  /** The largest amount that works not above `spendable`, or `null`. */
  maxWithin: ServedAmount | null;
  /** The amount not above `spendable` with the best net output (ties: the smaller). */
  bestWithin: (ServedAmount & { netOutput: DecimalText }) | null;
}

/** How to split (ruling 39); every field optional. */
export interface SplitPolicy {
  /** At most this many orders: 2 or 3 (default 3). */
  legs?: 2 | 3;
  /** What each order after the first costs, in the to asset (default `"0"`). */
  perOrderCost?: DecimalText;
  /** Also split when a single route serves the amount, if the split beats it by this many basis points. */
  minGainBps?: number;
  /**
   * The assets' decimals (ruling 48): every leg's amount has at most
   * `min(8, from)` places; a `fromAmount` off that grid is `INVALID_AMOUNT`.
   */
  decimals?: PairDecimals;
}

/** One order of a split. */
export interface SplitLeg {
  rateId: string;
  /** 8 places: `"8.33028657"`. */
  fromAmount: DecimalText;
  netOutput: DecimalText;
  /** At its rate's (effective) max, or where the amount ran out. */
  stop: "max" | "remainder";
}

/** The exact best split: legs in pour order (descending multiplier). */
export interface Split {
  legs: SplitLeg[];
  /** The sum of the legs' net outputs. */
  netOutput: DecimalText;
  /** The gain over the best single route in basis points (2 places, toward zero), `null` when none serves. */
  gainBps: DecimalText | null;
  /** Until when the split holds (ruling 50): its first leg's expiry, or earlier under a median price guard. */
  validUntil: EpochMillis;
}

/** `Rates#split`: the single route or the split, the other `null`. */
export interface SplitAnswer {
  route: Route | null;
  split: Split | null;
  /** Until when the answer holds (ruling 50): the split's `validUntil`, or the single route's. */
  validUntil: EpochMillis;
}

/** The most rates one response may carry (ruling 17): more are refused (`reason: "TOO_MANY"`) before any is serialized. */
export const MAX_RATES: 65536;

/** One pair's rates, decoded once, held in WebAssembly memory. */
export class Rates {
  private constructor();
  /** An array of rates, the response's JSON text, or `Rates` (returned as is). */
  static from(rates: Rate[] | string | Rates): Rates;
  readonly pairId: string | null;
  readonly length: number;
  /**
   * The same rates with every non-sponsored one taken as ExactOut-capable
   * (ruling 4: no live rate lists "exactOut"); its answers carry
   * `exactOutAssumed: true`. Free both when done.
   */
  assumeExactOut(): Rates;
  /** `true` for rates made by `assumeExactOut()`. */
  readonly exactOutAssumed: boolean;
  select(request: RouteRequest): Selection;
  best(request: RouteRequest): BestRoute;
  /** `k`: a whole number ≥ 0; above the number of routes it returns them all. */
  top(request: RouteRequest, k: number): TopRoutes;
  estimateExactOut(request: EstimateRequest): Estimate;
  /** The amounts that work (the whole build: not in `swaproute/browser`). */
  feasible(query: FeasibleQuery): FeasibleReport;
  /** The best single route or the exact best split, ExactIn (the whole build only). */
  split(request: RouteRequest, policy?: SplitPolicy): SplitAnswer;
  /** Until when `best(request)` (or `top(request, k)`; `k = 0` as `best`) holds, ruling 50: the answers' own `validUntil` (the whole build only). */
  validUntil(request: RouteRequest, k?: number): { validUntil: EpochMillis | null };
  /** The best route's successors until every rate has expired, ruling 50 (the whole build only). */
  schedule(request: RouteRequest): Schedule;
  free(): void;
}

/** One interval `[from, until)` of a schedule; `rateId` `null`: no route. */
export interface ScheduleInterval {
  from: EpochMillis;
  until: EpochMillis;
  rateId: string | null;
}

/** The best route's successors (ruling 50). */
export interface Schedule {
  validUntil: EpochMillis | null;
  schedule: ScheduleInterval[];
}

/** A re-quote's class (ruling 50). */
export type RequoteClass = "SAME" | "BETTER" | "WORSE_WITHIN" | "WORSE_BEYOND" | "GONE";

/** A fresh promise against the ORIGINAL one (ruling 50). */
export interface RequoteAnswer {
  class: RequoteClass;
  /** The original promise: ExactIn the output, ExactOut the input. */
  promised: DecimalText;
  /** The fresh promise; `null` when gone. */
  fresh: DecimalText | null;
  /** The loss from the original promise in basis points (negative: a gain), rounded up to 2 places. */
  lossBps: DecimalText | null;
  /** Why it is gone: the fresh plan's refusal. */
  reason: { status: number; code: string; details: string } | null;
}

/** `classifyRequote`'s input. */
export interface RequoteInput {
  mode: SwapMode;
  promised: DecimalText;
  bound: DecimalText;
  fresh: DecimalText | null;
}

/** A deposit's class (ruling 50). */
export type DepositClass = "COMPLETES" | "BELOW_MIN" | "ABOVE_MAX" | "AFTER_EXPIRY" | "OTHER_AMOUNT";

/** What an observed deposit leads to (ruling 50). */
export interface DepositAnswer {
  class: DepositClass;
  /** `COMPLETES`, `OTHER_AMOUNT`: the output for the amount, floored to 8 places. */
  expectedOutput: DecimalText | null;
  /** `BELOW_MIN`: the min; `ABOVE_MAX`: the effective max. */
  limit: DecimalText | null;
  /** The plan's rate's expiry. */
  expiry: EpochMillis;
}

/** Re-plans `body` at `options.now` against the original `plan` (what `planFixedOrder` returned). */
export function requoteFixedOrder(
  rates: RatesInput,
  body: BodyInput<FixedOrderBody>,
  plan: Pick<FixedOrderPlan, "amount" | "toAmount">,
  options: PlanOptions,
): RequoteAnswer;
/** Plans `body` at `options.now` and classifies a deposit observed at `observedAt`. */
export function depositOutcome(
  rates: RatesInput,
  body: BodyInput<FixedOrderBody>,
  deposit: { amount: DecimalText; observedAt: Instant },
  options: PlanOptions,
): DepositAnswer;
/** A fresh promise against an original one, without rates. */
export function classifyRequote(input: RequoteInput): RequoteAnswer;

export type RatesInput = Rate[] | string | Rates;

/** A request of the module-level functions: `assumeExactOut: true` ranks `Rates#assumeExactOut()` (ruling 4). */
export type AssumingRequest<R> = R & { assumeExactOut?: boolean };

export function selectRoutes(rates: RatesInput, request: AssumingRequest<RouteRequest>): Selection;
export function bestRoute(rates: RatesInput, request: AssumingRequest<RouteRequest>): BestRoute;
export function topRoutes(rates: RatesInput, request: AssumingRequest<RouteRequest>, k: number): TopRoutes;
export function estimateExactOut(rates: RatesInput, request: AssumingRequest<EstimateRequest>): Estimate;
/** The best single route or the exact best split (ruling 39): the whole build only. */
export function splitRoute(rates: RatesInput, request: RouteRequest, policy?: SplitPolicy): SplitAnswer;
/** The amounts that work (ruling 38): the whole build only. */
export function feasibleAmounts(rates: RatesInput, query: FeasibleQuery): FeasibleReport;

// --- chained routes ------------------------------------------------------------

export interface ChainRequest {
  /** Default `"ExactIn"`. */
  mode?: SwapMode;
  /** The asset sent, e.g. `"BTC"`. */
  from: string;
  /** The asset received. */
  to: string;
  /** ExactIn only. */
  fromAmount?: DecimalText;
  /** ExactOut only. */
  toAmount?: DecimalText;
  now: Instant;
  /** 1 to 3, default 2 (when absent: `null` or `NaN` is refused). */
  maxLegs?: number;
  campaigns?: Record<string, DecimalText>;
  /** The caller's economic floors (ruling 38): `feeMultiple` and `maxFeeShareBps` hold every leg, `dust` (the `to` asset) the last; none by default. */
  floors?: Floors;
  /** The caller's price guard (rulings 40-42): every leg, around its own pair's median or the caller's reference; none by default. */
  priceGuard?: PriceGuard;
}

export interface Leg {
  pairId: string;
  rateId: string;
  input: DecimalText;
  /** ExactIn: the leg's net output; ExactOut: what the next leg needs. */
  output: DecimalText;
}

export interface Chain {
  legs: Leg[];
  /** ExactIn: the last leg's output; `null` in ExactOut. */
  finalOutput: DecimalText | null;
  /** ExactOut: the first leg's input, 8 places; `null` in ExactIn. */
  requiredInput: DecimalText | null;
  /** The earliest leg's expiry. */
  expiry: EpochMillis;
}

/** `bestChain`: the best chain and until when it holds (ruling 50: its first leg's expiry, or earlier under a median price guard). */
export interface BestChain extends Chain {
  validUntil: EpochMillis;
}

export interface RankedChain extends Chain {
  rank: number;
}

export interface ChainRejection {
  /** The pairs of the path, in order. */
  legs: string[];
  /** 1-based number of the failing leg. */
  leg: number;
  /** The failing leg's rate. */
  rateId: string;
  reason: RejectReason;
}

/** A bounded report (ruling 36): the best `k` chains and the best `k` rejections, with counts. */
export interface ChainSelection {
  mode: SwapMode;
  from: string;
  to: string;
  fromAmount: DecimalText | null;
  toAmount: DecimalText | null;
  chains: RankedChain[];
  /** The best `k` refused rates (not every combination). */
  rejected: ChainRejection[];
  /** Reason code to how many rates no reachable amount passes (each rate once). */
  rejectedCounts: Record<string, number>;
  noRoute: ErrorBody | null;
  /** Until when the best chain holds (ruling 50, as `bestChain`'s), or the "no route" (the last expiry of any rate); `null` when no rate is left to expire. */
  validUntil: EpochMillis | null;
}

export type ResponsesInput = (Rate[] | string)[] | string;

/** `k` (default 10): a whole number ≥ 0; above the number of chains it returns them all. */
export function selectChains(responses: ResponsesInput, request: ChainRequest, k?: number): ChainSelection;
export function bestChain(responses: ResponsesInput, request: ChainRequest): BestChain;

// --- orders --------------------------------------------------------------------

/**
 * A number as an order body may carry it: decimal text (exact, preferred),
 * or a JS number (a double: the service reads its shortest decimal form, so
 * `0.1` is `"0.1"`, but a value with more than 15-17 significant digits may
 * already have lost some).
 */
export type DecimalInput = DecimalText | number;

/** A tag or memo as an order body may carry it: text, or a whole number from 0 to 2^64 − 1; `""` or `null` means none. */
export type TagInput = string | number | null;

/**
 * The body of `POST /v3/orders` (the fixed flow) as a wallet sends it.
 * The service ignores keys it does not know, so a misspelt key would be
 * lost silently: as an object literal here it is a compile error instead.
 * Pass the request's exact text (a `string`) to keep repeated keys or
 * big integers as sent.
 */
export interface FixedOrderBody {
  /** The amount sent (from asset), > 0. */
  fromAmount: DecimalInput;
  /** ExactIn: the output the wallet showed; ExactOut: the exact amount to receive. > 0. */
  toAmount: DecimalInput;
  /** Required key: the sender's address, or `null` for providers that collect it later. */
  fromAddress: string | null;
  fromAddressTag?: TagInput;
  toAddress: string;
  toAddressTag?: TagInput;
  /** `FROM_TO`, e.g. `"BTC_ETH"`. */
  pairId: string;
  /** Percent, 0-100; absent or `null` is 2 (ruling 33: it bounds the estimate). */
  slippage?: DecimalInput | null;
  /** Case-sensitive; absent or `null` is `"ExactIn"`. */
  swapMode?: SwapMode | null;
}

/**
 * The body of `POST /v3/orders/float` (the floating flow: priced by a
 * quote, always ExactIn): the fixed body without `swapMode` (any value but
 * `null` is `UNSUPPORTED_SWAP_MODE`, ruling 12), with the optional
 * `quoteId` of the quote it was planned with.
 */
export interface FloatOrderBody extends Omit<FixedOrderBody, "swapMode"> {
  /** When sent, the quote planned with must be this one. */
  quoteId?: string | null;
  /** Must not be sent (only `null` is taken). */
  swapMode?: null;
}

/** An order's status: the spec's, or one this version does not know (kept verbatim). */
export type OrderStatus =
  | "awaiting"
  | "inProgress"
  | "complete"
  | "expired"
  | "failed"
  | "refunded"
  | "delayed"
  | "swapped"
  | (string & {});

/**
 * An order as the service returns it: the `201` body of `POST /v3/orders`
 * (or `/v3/orders/float`), or a later `GET /v3/orders/:id`. Only `id`,
 * `status` and `pairId` are always there; the rest may be absent or `null`
 * (`""` where the service writes "none", e.g. `fromTransactionId` before the
 * deposit). A parsed response (`await res.json()`, typed `any`) is taken as
 * it is; pass the response's text to keep its numbers exactly as sent.
 */
export interface OrderResource {
  id: string;
  status: OrderStatus;
  pairId: string;
  /** The rate used (fixed orders). */
  rateId?: string | null;
  providerOrderId?: string | null;
  /** What the user sends (from asset). */
  amount?: AssetAmount | null;
  /** The destination amount once analyzed: `{assetId, value}`, or a bare decimal as some responses send it. */
  toAmount?: AssetAmount | DecimalInput | null;
  fromAddress?: string | null;
  fromAddressTag?: string | null;
  toAddress?: string | null;
  toAddressTag?: string | null;
  /** The deposit address: show it only when verification is `ok`. */
  payInAddress?: string | null;
  payInAddressTag?: string | null;
  fromTransactionId?: string | null;
  toTransactionId?: string | null;
  message?: string | null;
  /** ISO 8601, e.g. `"2026-03-11T09:27:16.204Z"`. */
  createdAt?: string | null;
  updatedAt?: string | null;
  extraFeatures?: { pid?: string | null; stringAmounts?: string | null } | null;
  sponsoredByCampaignId?: string | null;
}

/** A V3 quote (`GET /v3/pairs/:pairId/quotes`): the price source of a floating order. */
export interface QuoteResource {
  id: string;
  pairId: string;
  fromAmount: AssetAmount;
  toAmount: AssetAmount;
  /** Expired at `now >= expiry`. */
  expiry: EpochMillis;
  /** The spec does not show its structure (ruling 44): kept as sent. */
  partnerRevenueShareAmount?: unknown;
  sponsoredByCampaignId?: string | null;
}

/** An order body: the object a wallet builds, or the request's exact text. */
export type BodyInput<B> = B | string;

interface OrderFields {
  fromAmount: DecimalText;
  toAmount: DecimalText;
  fromAddress: string | null;
  fromAddressTag: string | null;
  toAddress: string;
  toAddressTag: string | null;
  pairId: string;
  /** Percent, default `"2"`. */
  slippage: DecimalText;
}

export interface FixedOrder extends OrderFields {
  swapMode: SwapMode;
}

export interface FloatOrder extends OrderFields {
  quoteId: string | null;
}

/** A body object, or the request's exact text (repeated keys, big integers). */
export function validateFixedOrder(body: BodyInput<FixedOrderBody>): FixedOrder;
export function validateFloatOrder(body: BodyInput<FloatOrderBody>): FloatOrder;

/** The caller's side of a fixed order plan. */
export interface PlanOptions {
  now: Instant;
  campaigns?: Record<string, DecimalText>;
  /** The assets' decimals: the exact amount is checked against them, and the order's amounts rounded to them. */
  decimals?: PairDecimals;
  /** Default `"strict"` (ruling 34): never an order amount outside its rate's limits. */
  limitPolicy?: "strict" | "spec";
  /** The price guard (ruling 40): the plan selects among the rates it admits. */
  priceGuard?: PriceGuard;
  /**
   * The networks of the pair's assets by their records' names (`"ethereum"`,
   * `"bitcoin"`): addresses are checked against them (ruling 46), and the
   * deposit address too, checksums included (ruling 45). Without it the
   * answer's `addressesChecked` is `false`.
   */
  networks?: { from: string; to: string };
  /** Takes every non-sponsored rate as ExactOut-capable (ruling 4); the answer says so. */
  assumeExactOut?: boolean;
}

/** A fixed order planned as the service plans it. */
export interface FixedOrderPlan {
  rateId: string;
  swapMode: SwapMode;
  /** The order's `amount` (from asset): `fromAmount` in ExactIn, the required input (rounded up) in ExactOut. */
  amount: DecimalText;
  /** ExactIn: the promised output (the net output rounded down, ruling 35); ExactOut: the body's exact `toAmount`. */
  toAmount: DecimalText;
  /** ExactOut: where `amount` lies against the rate's limits; `null` in ExactIn. */
  amountLimits: RequiredInputLimits | null;
  /** Percent (default `"2"`). */
  slippage: DecimalText;
  sponsoredByCampaignId: string | null;
  /** Whether the addresses were checked against their assets' networks (`options.networks`, ruling 46). */
  addressesChecked: boolean;
  /** Whether the chosen rate's ExactOut capability was assumed (`options.assumeExactOut`, ruling 4). */
  exactOutAssumed: boolean;
}

/**
 * Plans a `POST /v3/orders` body over the pair's rates: the best route
 * (strict limits), the order's amounts, then the slippage (ruling 33). A
 * route that misses it throws `SLIPPAGE_EXCEEDED` (409) with `bound` and
 * `available`: what a wallet checks before it sends the order.
 */
export function planFixedOrder(rates: RatesInput, body: BodyInput<FixedOrderBody>, options: PlanOptions): FixedOrderPlan;

/** A field of the order resource that verification compares. */
export type OrderField =
  | "pairId"
  | "rateId"
  | "amount"
  | "amount.assetId"
  | "toAddress"
  | "toAddressTag"
  | "fromAddress"
  | "fromAddressTag"
  | "sponsoredByCampaignId"
  | "toAmount"
  | "toAmount.assetId"
  | "payInAddress"
  | "status";

/** One difference between the plan and the order the service returned. */
export interface Mismatch {
  field: OrderField;
  /**
   * `"equal"` (`planned` is the value; `null`: none), `"atLeast"` (`planned`
   * is the bound), `"depositAddress"` (ruling 45: `planned` says why the
   * returned `payInAddress` is no deposit address: a burn address, the
   * request's own toAddress, a broken checksum, …), `"open"` (ruling 45:
   * the status on creation must be `awaiting`, `inProgress`, `delayed` or
   * `swapped`), `"nonEmpty"` (not produced any more).
   */
  check: "equal" | "atLeast" | "depositAddress" | "open" | "nonEmpty";
  planned: string | null;
  /** What the order carries; `null` when the key is absent, `null` or `""`. */
  returned: string | null;
}

/** `ok` when the order is the one planned; else every mismatch, in field order. */
export interface OrderVerification {
  ok: boolean;
  mismatches: Mismatch[];
  /** Whether the addresses were checked against their networks (ruling 46). */
  addressesChecked: boolean;
  /** Whether the plan's rate's ExactOut capability was assumed (ruling 4). */
  exactOutAssumed: boolean;
}

/** The options of a fixed order's verification: the plan's, and which read of the order. */
export interface VerifyOptions extends PlanOptions {
  /** `"created"` (default: the 201 body, its status must not be definitive, ruling 45) or `"fetched"` (a later GET). */
  read?: "created" | "fetched";
}

/**
 * Checks the order the service returned (the 201 body, or a later GET)
 * against the plan of `body` over `rates` with `options` (the same as
 * `planFixedOrder` was given) (ruling 40): pair, rate, amount, addresses
 * and tags (canonical form, ruling 27), `fromAddress` when sent, campaign,
 * `toAmount` against the slippage bound (ruling 33), the deposit address
 * (ruling 45: valid for the from network when known, not a burn address, not
 * the request's own addresses), and an open status on creation. Every mismatch is listed; show the deposit
 * address only when `ok`.
 */
export function verifyOrder(
  rates: RatesInput,
  body: BodyInput<FixedOrderBody>,
  order: OrderResource | string,
  options: VerifyOptions,
): OrderVerification;

/** {@link verifyOrder} for a floating order planned from `quote` (no `rateId`). */
export function verifyFloatOrder(
  quote: QuoteResource | string,
  body: BodyInput<FloatOrderBody>,
  order: OrderResource | string,
  options: { now: Instant; read?: "created" | "fetched"; networks?: { from: string; to: string } },
): OrderVerification;

// --- screening, status, client ---------------------------------------------------

export interface ScreenOptions {
  /** Default `"other"`: only the generic address rules. */
  network?: "evm" | "bech32" | "other";
  /** The field named in errors; default `"toAddress"`. */
  field?: "toAddress" | "fromAddress";
  /** Addresses refused with `RESTRICTED_ADDRESS` (any spelling of them). */
  denylist?: string[];
}

export interface ScreenedAddress {
  address: string;
  /** The form addresses are compared in (lower case where case does not matter). */
  canonical: string;
  encoding: "evmHex" | "bech32" | "bech32m" | "cashAddr" | "other";
}

export function screenAddress(address: string, options?: ScreenOptions): ScreenedAddress;

/**
 * The status an order is in: `{status, depositDetected?}`, or what
 * `reconcileStatus` answered (`{status, definitive}`), or both when they agree.
 */
export interface TrackedStatus {
  /** `awaiting`, `inProgress`, `complete`, `expired`, `failed`, `refunded`, `delayed`, `swapped`, or a status this version does not know (kept verbatim). */
  status: string;
  /** Whether the provider had detected the deposit (matters for `expired`/`failed`). */
  depositDetected?: boolean;
  /** As `reconcileStatus` answers: refused when the status cannot be (or must be) definitive. */
  definitive?: boolean;
}

/** What `reconcileStatus` answers; it goes back in as the next `current`. */
export interface ReconciledStatus {
  status: string;
  /** Nothing but another definitive observation (or completion) changes it. */
  definitive: boolean;
}

export interface Observation {
  status: string;
  depositDetected?: boolean;
  confirmations?: number;
}

export function reconcileStatus(current: TrackedStatus, observations: Observation[]): ReconciledStatus;

export type ForwardedNode =
  | { kind: "ip"; addr: string; port?: number | string }
  | { kind: "unknown"; port?: number | string }
  | { kind: "obfuscated"; id: string; port?: number | string };

export interface ForwardedInfo {
  elements: number;
  /** The first element's `for`. */
  client: ForwardedNode | null;
  /** The address location screening may use, or why there is none. */
  screening: { addr: string } | { none: "NO_FOR" | "UNKNOWN" | "OBFUSCATED" } | { none: "NOT_GLOBAL"; scope: string };
}

export function parseForwarded(value: string): ForwardedInfo;

export interface ClientInfo {
  appName: string;
  appVersion: string | null;
  appPlatform: "desktop" | "mobile" | "browser" | null;
  userAgent: string | null;
  /** The `Forwarded` address screening uses, or `null`. */
  screeningAddr: string | null;
}

/**
 * A `Headers` object, `[name, value]` pairs, or a record of names to values
 * (Node's `req.headers`): `undefined` or `null` is no value, so a missing
 * `App-Name` is the 401 it is without one.
 */
export function clientHeaders(
  headers: Iterable<[string, string]> | Record<string, string | readonly (string | null | undefined)[] | null | undefined>,
  integration?: "direct" | "proxying",
): ClientInfo;

// --- texts -------------------------------------------------------------------

export function parseAmount(value: string): DecimalText;
export function decimalFromJsonNumber(json: string): DecimalText;

export interface ChainId {
  namespace: string;
  reference: string;
}

export interface AssetType extends ChainId {
  assetNamespace: string;
  assetReference: string;
}

export interface AssetId extends AssetType {
  tokenId: string;
}

export function parseChainId(value: string): ChainId;
export function parseAssetType(value: string): AssetType;
export function parseAssetId(value: string): AssetId;
