// Compiled by `tsc -p tsconfig.json` (no output): every function of the
// package used as a wallet would, and misuse the types must refuse.
import {
  Rates,
  classifyRequote,
  depositOutcome,
  requoteFixedOrder,
  SwaprouteError,
  bestChain,
  bestRoute,
  clientHeaders,
  decimalFromJsonNumber,
  estimateExactOut,
  parseAmount,
  parseAssetId,
  parseAssetType,
  parseChainId,
  parseForwarded,
  reconcileStatus,
  screenAddress,
  selectChains,
  selectRoutes,
  topRoutes,
  validateFixedOrder,
  validateFloatOrder,
  type Chain,
  type ChainSelection,
  type ErrorBody,
  type Estimate,
  type Rate,
  type Route,
  type BestRoute,
  type TopRoutes,
  type BestChain,
  type EpochMillis,
  type Selection,
  feasibleAmounts,
  splitRoute,
  type SplitAnswer,
  planFixedOrder,
  MAX_RATES,
  type FeasibleReport,
  type FixedOrderPlan,
  type RejectReason,
  verifyOrder,
  verifyFloatOrder,
  type OrderVerification,
  type Mismatch,
  type FixedOrderBody,
  type FloatOrderBody,
  type OrderResource,
  type OrderStatus,
  type QuoteResource,
} from "../js/index.js";
// The service's real payloads (../shared/payloads, beside the repository),
// checked below against the order types.
import realFixedBody from "../../../../shared/payloads/order-create-request.json" with { type: "json" };
import realFloatBody from "../../../../shared/payloads/order-float-create-request.json" with { type: "json" };
import realCreated from "../../../../shared/payloads/order-create-response.json" with { type: "json" };
import realCreatedDocs from "../../../../shared/payloads/order-create-response-docs.json" with { type: "json" };
import realStatus from "../../../../shared/payloads/order-status-response.json" with { type: "json" };
import realStatusDocs from "../../../../shared/payloads/order-status-response-docs-complete.json" with { type: "json" };
import realStatusStrings from "../../../../shared/payloads/order-status-response-string-amounts.json" with { type: "json" };
import realQuote from "../../../../shared/payloads/quote-response.json" with { type: "json" };

declare const rates: Rate[];
const now = Date.now();

const selection: Selection = selectRoutes(rates, { fromAmount: "0.5", now });
const first: string | undefined = selection.routes[0]?.netOutput;
const noRoute: ErrorBody | null = selection.noRoute;
const best: BestRoute = bestRoute(rates, { mode: "ExactOut", fromAmount: "0.5", toAmount: "16", now });
// Ruling 50: a route found always has a lifetime; a list or a selection may not.
const bestUntil: EpochMillis = best.validUntil;
const selectUntil: EpochMillis | null = selection.validUntil;
const required: string | null = best.requiredInput;
const top: TopRoutes = topRoutes(rates, { fromAmount: "1", now, limitPolicy: "strict" }, 3);
const topFirst: Route | undefined = top.routes[0];
const topUntil: EpochMillis | null = top.validUntil;
// @ts-expect-error top answers {routes, validUntil}, no longer an array
const topArray: Route[] = topRoutes(rates, { fromAmount: "1", now }, 3);
// @ts-expect-error validUntil may be null: not a number for sure
const topUntilNumber: number = top.validUntil;
// @ts-expect-error validUntil is epoch ms, not a Date
const bestUntilDate: Date = best.validUntil;
const estimate: Estimate = estimateExactOut(rates, { toAmount: "10", now });

const book = Rates.from(rates);
const pair: string | null = book.pairId;
const n: number = book.length;
book.select({ fromAmount: "2", now, campaigns: { spring: "0.5" } });
book.free();

const chains: ChainSelection = selectChains([rates, rates], { from: "BTC", to: "SOL", fromAmount: "0.5", now, maxLegs: 3 }, 5);
const chain: BestChain = bestChain([rates], { mode: "ExactOut", from: "BTC", to: "SOL", toAmount: "10", now });
const chainUntil: EpochMillis = chain.validUntil;
const chainsUntil: EpochMillis | null = chains.validUntil;
const legs: number = chain.legs.length + chains.chains.length + chains.rejected.length;

// The order bodies of the spec, typed: what a wallet builds.
const fixedBody: FixedOrderBody = {
  fromAmount: "0.5",
  toAmount: "16.5",
  fromAddress: null,
  toAddress: "0x52908400098527886E0F7030069857D2E4169EE7",
  pairId: "BTC_ETH",
  slippage: 1,
  swapMode: "ExactOut",
};
const fixed = validateFixedOrder(fixedBody);
const mode: "ExactIn" | "ExactOut" = fixed.swapMode;
const float = validateFloatOrder('{"fromAmount":"1"}');
const floatBody: FloatOrderBody = { ...fixedBody, swapMode: null, quoteId: "q-1", toAddressTag: 123 };
validateFloatOrder(floatBody);
// A parsed request (typed `any`) is passed as it is; the package validates it.
declare const received: any;
validateFixedOrder(received);
// @ts-expect-error a misspelt key would be ignored by the service: refused here
validateFixedOrder({ ...fixedBody, toAdress: "x" });
// @ts-expect-error `toAddress` is required
validateFixedOrder({ fromAmount: "0.5", toAmount: "16.5", fromAddress: null, pairId: "BTC_ETH" });
// @ts-expect-error `fromAddress` is a required key (null defers it)
validateFixedOrder({ fromAmount: "0.5", toAmount: "16.5", toAddress: "x", pairId: "BTC_ETH" });
// @ts-expect-error amounts are text or numbers, never bigints
validateFixedOrder({ ...fixedBody, fromAmount: 5n });
// @ts-expect-error swap modes are case-sensitive
validateFixedOrder({ ...fixedBody, swapMode: "exactOut" });
// @ts-expect-error a floating order has no swap mode (ruling 12)
validateFloatOrder({ ...fixedBody, swapMode: "ExactIn" });
// @ts-expect-error a fixed order has no quote id
planFixedOrder(rates, { ...fixedBody, quoteId: "q-1" }, { now });
// @ts-expect-error a body is an object or its text, not an array
validateFixedOrder([fixedBody]);
const quote: string | null = float.quoteId;

const screened = screenAddress("0x52908400098527886E0F7030069857D2E4169EE7", { network: "evm", denylist: [] });
const canonical: string = screened.canonical;
const status = reconcileStatus({ status: "awaiting" }, [{ status: "expired", confirmations: 1 }]);
const definitive: boolean = status.definitive;
const forwarded = parseForwarded("for=192.0.2.43");
const info = clientHeaders(new Map([["App-Name", "wallet"]]), "proxying");
const headers = clientHeaders({ "App-Name": "wallet", Forwarded: ["for=8.8.8.8"] });
const text: string = parseAmount("1.5") + decimalFromJsonNumber("0.1");
const asset = parseAssetId("eip155:1/erc721:0x06012c8cf97BEaD5deAe237070F9587f8E7A266d/771769");
const tokenId: string = asset.tokenId + parseAssetType("eip155:1/slip44:60").assetNamespace + parseChainId("eip155:1").reference;

const report: FeasibleReport = feasibleAmounts(rates, { mode: "ExactOut", now, floors: { dust: "0.001", maxFeeShareBps: 50 }, decimals: { from: 8, to: 6 }, spendable: "2" });
const most: string | undefined = report.maxWithin?.amount ?? report.ranges[0]?.to;
const floored: Route = bestRoute(rates, { fromAmount: "1", now, floors: { feeMultiple: "10" } });
const reason: RejectReason = "FEE_SHARE_TOO_LARGE";
const answer: SplitAnswer = splitRoute(rates, { fromAmount: "10", now }, { legs: 3, perOrderCost: "0.01", minGainBps: 5 });
const stop: "max" | "remainder" | undefined = answer.split?.legs[0]?.stop;
const gain: string | null | undefined = answer.split?.gainBps;
// @ts-expect-error a split has 2 or 3 legs
splitRoute(rates, { fromAmount: "10", now }, { legs: 4 });
const cap: 65536 = MAX_RATES;
const plan: FixedOrderPlan = planFixedOrder(rates, { ...fixedBody, fromAmount: "1", toAmount: "30" }, { now, decimals: { from: 8, to: 18 }, limitPolicy: "spec" });
const promised: string = plan.toAmount;
try {
  planFixedOrder(book, '{"fromAmount":"1"}', { now });
} catch (e) {
  if (e instanceof SwaprouteError && e.code === "SLIPPAGE_EXCEEDED") {
    const bound: string | undefined = e.bound ?? e.body.bound;
    const available: string | undefined = e.available;
    const above: string | undefined = e.requiredInput?.above?.toAmount ?? undefined;
    void bound, available, above;
  }
}
void [most, floored, reason, cap, promised];

// @ts-expect-error floors are amounts as text
bestRoute(rates, { fromAmount: "1", now, floors: { dust: 1 } });
// @ts-expect-error a plan needs its options (now)
planFixedOrder(rates, fixedBody);

try {
  bestRoute(rates, { fromAmount: "0", now });
} catch (e) {
  if (e instanceof SwaprouteError) {
    const status: number = e.status;
    const min: string | undefined = e.min;
    const body: { status: number; code: string; details: string } = e.body;
    void status, min, body;
  }
}

// Ruling 40: the guard and the verification.
const guarded: Selection = selectRoutes(rates, { fromAmount: "0.5", now, priceGuard: { maxDeviationBps: 500 } });
const outlier: string | null | undefined = guarded.rejected[0]?.deviationBps;
const created: OrderResource = {
  id: "o-1",
  status: "awaiting",
  pairId: "BTC_ETH",
  rateId: "r-1",
  amount: { assetId: "BTC", value: "0.5" },
  fromAddress: null,
  toAddress: "0x52908400098527886E0F7030069857D2E4169EE7",
  payInAddress: "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh",
  payInAddressTag: "",
  createdAt: "2026-07-14T09:30:00Z",
};
const verdict: OrderVerification = verifyOrder(rates, fixedBody, created, { now, read: "created", priceGuard: { maxDeviationBps: 1, reference: "33" } });
const mismatch: Mismatch | undefined = verdict.mismatches[0];
const quoted: QuoteResource = {
  id: "q-1",
  pairId: "BTC_ETH",
  fromAmount: { assetId: "BTC", value: "0.5" },
  toAmount: { assetId: "ETH", value: 16.5 },
  expiry: now + 30_000,
};
const floatVerdict: boolean = verifyFloatOrder(quoted, floatBody, '{"id":"o-2","status":"awaiting","pairId":"BTC_ETH"}', { now }).ok;
// @ts-expect-error an order's amount is {assetId, value}, not a bare decimal
verifyOrder(rates, fixedBody, { ...created, amount: "0.5" }, { now });
// @ts-expect-error an order always has its id, status and pair
verifyOrder(rates, fixedBody, { status: "awaiting", pairId: "BTC_ETH" }, { now });
// @ts-expect-error the quote comes first, then the body
verifyFloatOrder(floatBody, quoted, created, { now });
// An unknown status is kept verbatim, so any text is a status.
const later: OrderStatus = "someNewStatus";
void later;
void [outlier, mismatch, floatVerdict];
// @ts-expect-error the bound is a number of basis points
selectRoutes(rates, { fromAmount: "0.5", now, priceGuard: { maxDeviationBps: "500" } });
// @ts-expect-error reads are "created" or "fetched"
verifyOrder(rates, fixedBody, created, { now, read: "later" });

// @ts-expect-error amounts are decimal text, never JS numbers
selectRoutes(rates, { fromAmount: 0.5, now });
// @ts-expect-error `now` is required: the package has no clock
selectRoutes(rates, { fromAmount: "0.5" });
// @ts-expect-error modes are case-sensitive
selectRoutes(rates, { mode: "exactIn", fromAmount: "0.5", now });
// @ts-expect-error Rates are made by Rates.from
new Rates();

void [bestUntil, selectUntil, topFirst, topUntil, topArray, topUntilNumber, bestUntilDate, chainUntil, chainsUntil];
void [first, noRoute, required, top, estimate, pair, n, legs, mode, quote, canonical, definitive, forwarded, info, headers, text, tokenId];

// Ruling 50: lifetimes, re-quotes and deposits.
const lifetimeRates = Rates.from("[]");
const until: number | null = lifetimeRates.validUntil({ fromAmount: "0.5", now }).validUntil;
const firstLeader: string | null | undefined = lifetimeRates.schedule({ fromAmount: "0.5", now }).schedule[0]?.rateId;
const requoted: "SAME" | "BETTER" | "WORSE_WITHIN" | "WORSE_BEYOND" | "GONE" =
  requoteFixedOrder(lifetimeRates, fixedBody, { amount: "0.5", toAmount: "15" }, { now }).class;
const loss: string | null = classifyRequote({ mode: "ExactIn", promised: "15", bound: "14", fresh: null }).lossBps;
const deposited: string = depositOutcome(lifetimeRates, fixedBody, { amount: "0.5", observedAt: new Date() }, { now }).class;
void [until, firstLeader, requoted, loss, deposited];
// @ts-expect-error a re-quote's mode is a swap mode
classifyRequote({ mode: "exactIn", promised: "15", bound: "14", fresh: null });


// The real payloads are what the order types describe: each one type-checks.
const realBodies: [FixedOrderBody, FloatOrderBody] = [realFixedBody, realFloatBody];
const realOrders: OrderResource[] = [realCreated, realCreatedDocs, realStatus, realStatusDocs, realStatusStrings];
const realQuotes: QuoteResource[] = [realQuote];
void [realBodies, realOrders, realQuotes];
