// The package's API as a wallet or a server uses it. Expected values are
// worked out by hand in the comments; key sets are those of js/index.d.ts.
import { test } from "node:test";
import assert from "node:assert/strict";

import * as swaproute from "../pkg/node.js";
import {
  Rates,
  SwaprouteError,
  bestChain,
  bestRoute,
  clientHeaders,
  estimateExactOut,
  reconcileStatus,
  screenAddress,
  selectChains,
  selectRoutes,
  topRoutes,
  validateFixedOrder,
  validateFloatOrder,
} from "../pkg/node.js";

const NOW = 1700000000000;
const LATER = NOW + 60000;

function rate(id, pair, multiplier, fee, min, max, extra = {}) {
  const [from, to] = pair.split("_");
  return {
    amount: { assetId: to, value: multiplier },
    expiry: LATER,
    id,
    max: { assetId: from, value: max },
    min: { assetId: from, value: min },
    minerFee: { assetId: to, value: fee },
    pairId: pair,
    features: ["exactOut"],
    ...extra,
  };
}

// BTC_ETH: net at 0.5 BTC is 0.5 × 30 − 0.01 = 14.99 ("a") and
// 0.5 × 30.5 − 0.2 = 15.05 ("b"); "c" takes at most 0.25 BTC.
const btcEth = [
  rate("a", "BTC_ETH", 30, 0.01, 0.001, 10),
  rate("b", "BTC_ETH", 30.5, 0.2, 0.001, 10),
  rate("c", "BTC_ETH", 40, 0, 0.001, 0.25),
];
// ETH_SOL: 50 SOL per ETH, fee 0.1 SOL.
const ethSol = [rate("s", "ETH_SOL", 50, 0.1, 0.01, 1000)];

/** Runs `f`, which must throw a SwaprouteError; returns it. */
function thrown(f) {
  try {
    f();
  } catch (error) {
    assert.ok(error instanceof SwaprouteError, `threw ${error}`);
    assert.ok(error instanceof Error);
    return error;
  }
  assert.fail("did not throw");
}

const keys = (object) => Object.keys(object).sort();

test("selectRoutes ranks by net output and says why the rest were rejected", () => {
  const selection = selectRoutes(btcEth, { fromAmount: "0.5", now: NOW });
  assert.deepEqual(keys(selection), ["fromAmount", "mode", "noRoute", "rejected", "routes", "toAmount", "validUntil"]);
  // Every rate expires at LATER: the whole list holds until then (ruling 50).
  assert.equal(selection.validUntil, LATER);
  assert.deepEqual(
    selection.routes.map((r) => [r.rank, r.rateId, r.netOutput]),
    [
      [1, "b", "15.05"],
      [2, "a", "14.99"],
    ],
  );
  assert.deepEqual(keys(selection.routes[0]), [
    "netOutput",
    "rank",
    "rateId",
    "requiredInput",
    "requiredInputLimits",
    "sponsoredByCampaignId",
  ]);
  assert.deepEqual(selection.rejected.map((r) => [r.rateId, r.reason, r.limit]), [["c", "ABOVE_MAX", "0.25"]]);
  assert.deepEqual(keys(selection.rejected[0]), ["detail", "limit", "rateId", "reason"]);
  assert.equal(selection.noRoute, null);
});

test("a Rates handle decodes once and ranks every amount typed", () => {
  const rates = Rates.from(JSON.stringify(btcEth));
  assert.equal(rates.pairId, "BTC_ETH");
  assert.equal(rates.length, 3);
  // At 0.1 BTC "c" (0.1 × 40 = 4) beats "b" (0.1 × 30.5 − 0.2 = 2.85) and "a" (2.99).
  assert.deepEqual(rates.top({ fromAmount: "0.1", now: NOW }, 2).routes.map((r) => r.rateId), ["c", "a"]);
  assert.equal(rates.best({ fromAmount: "0.5", now: NOW }).rateId, "b");
  assert.equal(Rates.from(rates), rates);
  rates.free();
  const error = thrown(() => rates.best({ fromAmount: "0.5", now: NOW }));
  assert.equal(error.code, "INVALID_REQUEST");
  rates.free(); // twice is harmless
});

test("ExactOut: the required input is rounded up to 8 places, and the estimate finds the least", () => {
  // "a": (16 + 0.01) / 30 = 0.53366666… → 0.53366667; "b": 16.2 / 30.5 = 0.53114754…
  // → 0.53114755; "c" needs 0.4 BTC but takes at most 0.25.
  const route = bestRoute(btcEth, { mode: "ExactOut", fromAmount: "0.5", toAmount: "16", now: NOW });
  assert.deepEqual([route.rateId, route.requiredInput], ["b", "0.53114755"]);
  assert.deepEqual(estimateExactOut(btcEth, { toAmount: "16", now: NOW }), {
    fromAmount: "0.53114755",
    rateId: "b",
  });
  const error = thrown(() => selectRoutes(btcEth, { mode: "ExactOut", fromAmount: "0.5", now: NOW }));
  assert.deepEqual([error.status, error.code, error.field], [400, "INVALID_REQUEST", "toAmount"]);
});

test("no route is thrown as the service's error body, with the nearest limit", () => {
  const error = thrown(() => bestRoute(btcEth, { fromAmount: "0.0001", now: NOW }));
  assert.deepEqual([error.status, error.code, error.min], [400, "AMOUNT_BELOW_LIMIT", "0.001"]);
  assert.match(error.message, /^AMOUNT_BELOW_LIMIT: /);
  assert.deepEqual(Object.keys(error.body), ["status", "code", "details", "min"]);
  const expired = thrown(() => bestRoute(btcEth, { fromAmount: "0.5", now: LATER }));
  assert.deepEqual([expired.status, expired.code], [410, "RATE_EXPIRED"]);
});

test("requests are checked strictly: unknown keys, numbers for amounts, bad modes and k", () => {
  const typo = thrown(() => selectRoutes(btcEth, { fromAmout: "0.5", now: NOW }));
  assert.equal(typo.code, "INVALID_REQUEST");
  assert.match(typo.details, /fromAmout/);
  assert.equal(thrown(() => selectRoutes(btcEth, { fromAmount: 0.5, now: NOW })).code, "INVALID_REQUEST");
  assert.equal(thrown(() => selectRoutes(btcEth, { fromAmount: "1e5", now: NOW })).code, "INVALID_AMOUNT");
  assert.equal(thrown(() => selectRoutes(btcEth, { fromAmount: "-1", now: NOW })).code, "INVALID_AMOUNT");
  // Zero is an amount: below every min.
  assert.equal(selectRoutes(btcEth, { fromAmount: "0", now: NOW }).noRoute.code, "AMOUNT_BELOW_LIMIT");
  assert.equal(
    thrown(() => selectRoutes(btcEth, { mode: "exactIn", fromAmount: "1", now: NOW })).code,
    "UNSUPPORTED_SWAP_MODE",
  );
  assert.equal(thrown(() => topRoutes(btcEth, { fromAmount: "1", now: NOW }, -1)).code, "INVALID_REQUEST");
  assert.equal(thrown(() => topRoutes(btcEth, { fromAmount: "1", now: NOW }, 1.5)).code, "INVALID_REQUEST");
  const mixed = thrown(() => selectRoutes([...btcEth, ...ethSol], { fromAmount: "1", now: NOW }));
  assert.deepEqual([mixed.code, mixed.reason], ["INVALID_REQUEST", "MIXED_PAIRS"]);
  const twice = thrown(() => Rates.from([btcEth[0], btcEth[0]]));
  assert.equal(twice.reason, "DUPLICATE_ID");
  assert.equal(thrown(() => Rates.from("[{")).code, "INVALID_REQUEST");
});

test("campaign limits cap sponsored variants", () => {
  const sponsored = rate("a:spring", "BTC_ETH", 30, 0, 0.001, 10, { sponsoredByCampaignId: "spring" });
  const selection = selectRoutes([btcEth[0], sponsored], {
    fromAmount: "0.5",
    now: NOW,
    campaigns: { spring: "0.2" },
  });
  assert.deepEqual(selection.routes.map((r) => r.rateId), ["a"]);
  assert.deepEqual(selection.rejected.map((r) => [r.rateId, r.reason, r.limit]), [["a:spring", "ABOVE_MAX", "0.2"]]);
});

test("chained routes: BTC → ETH → SOL with the 8-place floor between legs", () => {
  // Leg 1 at 0.5 BTC: "b" gives 15.05 ETH ("a" 14.99, "c" over its max).
  // Leg 2: 15.05 × 50 − 0.1 = 752.4 SOL.
  const request = { from: "BTC", to: "SOL", fromAmount: "0.5", now: NOW };
  const selection = selectChains([btcEth, ethSol], request, 5);
  assert.deepEqual(keys(selection), [
    "chains",
    "from",
    "fromAmount",
    "mode",
    "noRoute",
    "rejected",
    "rejectedCounts",
    "to",
    "toAmount",
    "validUntil",
  ]);
  assert.equal(selection.validUntil, LATER);
  const [first, second] = selection.chains;
  assert.deepEqual(keys(first), ["expiry", "finalOutput", "legs", "rank", "requiredInput"]);
  assert.deepEqual(
    first.legs.map((l) => [l.pairId, l.rateId, l.input, l.output]),
    [
      ["BTC_ETH", "b", "0.5", "15.05"],
      ["ETH_SOL", "s", "15.05", "752.4"],
    ],
  );
  assert.deepEqual([first.finalOutput, first.requiredInput, first.expiry], ["752.4", null, LATER]);
  // 14.99 × 50 − 0.1 = 749.4
  assert.equal(second.finalOutput, "749.4");
  assert.deepEqual(
    selection.rejected.map((r) => [r.legs, r.leg, r.rateId, r.reason]),
    [[["BTC_ETH", "ETH_SOL"], 1, "c", "ABOVE_MAX"]],
  );
  assert.deepEqual(selection.rejectedCounts, { ABOVE_MAX: 1 });
  assert.deepEqual(bestChain([btcEth, ethSol], request).finalOutput, "752.4");
  const none = thrown(() => bestChain([btcEth, ethSol], { ...request, to: "DOGE" }));
  assert.deepEqual([none.status, none.code], [422, "ROUTE_UNAVAILABLE"]);
  // No chain: that holds until the last rate expires (ruling 50).
  assert.equal(none.validUntil, LATER);
  assert.equal(bestChain([btcEth, ethSol], request).validUntil, LATER);
  assert.equal(thrown(() => bestChain([btcEth, ethSol], { ...request, maxLegs: 4 })).field, "maxLegs");
  assert.equal(thrown(() => bestChain([btcEth, btcEth], request)).reason, "DUPLICATE_PAIR");
});

const body = {
  fromAmount: "0.5",
  toAmount: "15",
  fromAddress: null,
  toAddress: "0x52908400098527886E0F7030069857D2E4169EE7",
  pairId: "BTC_ETH",
};

test("order bodies: the fields, or every problem in priority order", () => {
  assert.deepEqual(validateFixedOrder(body), {
    fromAmount: "0.5",
    toAmount: "15",
    fromAddress: null,
    fromAddressTag: null,
    toAddress: body.toAddress,
    toAddressTag: null,
    pairId: "BTC_ETH",
    slippage: "2",
    swapMode: "ExactIn",
  });
  assert.equal(validateFloatOrder({ ...body, quoteId: "q1" }).quoteId, "q1");
  const error = thrown(() => validateFixedOrder({ ...body, fromAmount: "-1", pairId: "BTC", swapMode: "exactout" }));
  assert.deepEqual([error.status, error.code, error.field], [400, "INVALID_REQUEST", "pairId"]);
  // What a server answers with: the service's body, without the field list.
  assert.deepEqual(Object.keys(error.body), ["status", "code", "details"]);
  assert.match(error.body.details, /^pairId: /);
  assert.deepEqual(
    error.errors.map((e) => [e.field, e.code]),
    [
      ["pairId", "INVALID_REQUEST"],
      ["swapMode", "UNSUPPORTED_SWAP_MODE"],
      ["fromAmount", "INVALID_AMOUNT"],
    ],
  );
  // The exact text: a repeated key is refused as a whole.
  assert.equal(thrown(() => validateFixedOrder('{"fromAmount":"1","fromAmount":"2"}')).field, "body");
  assert.equal(thrown(() => validateFloatOrder({ ...body, swapMode: "ExactIn" })).code, "UNSUPPORTED_SWAP_MODE");
});

test("screening: EIP-55, the zero address and a denylist in any spelling", () => {
  const good = "0x52908400098527886E0F7030069857D2E4169EE7";
  assert.deepEqual(screenAddress(good, { network: "evm" }), {
    address: good,
    canonical: good.toLowerCase(),
    encoding: "evmHex",
  });
  const bad = thrown(() => screenAddress("0x52908400098527886E0F7030069857D2E4169Ee7", { network: "evm" }));
  assert.deepEqual([bad.code, bad.reason, bad.field], ["INVALID_ADDRESS", "EVM_CHECKSUM", "toAddress"]);
  const zero = thrown(() => screenAddress(`0x${"0".repeat(40)}`, { field: "fromAddress" }));
  assert.deepEqual([zero.status, zero.code, zero.reason, zero.field], [403, "RESTRICTED_ADDRESS", "ZERO_ADDRESS", "fromAddress"]);
  const denied = thrown(() => screenAddress(good, { denylist: [good.toLowerCase()] }));
  assert.equal(denied.reason, "DENYLISTED");
  assert.equal(thrown(() => screenAddress(good, { network: "solana" })).code, "INVALID_REQUEST");
});

test("client headers from a Headers object, pairs or a record; proxying needs a Forwarded", () => {
  const headers = new Headers({ "App-Name": "wallet", "App-Platform": "mobile", Forwarded: "for=8.8.8.8" });
  assert.deepEqual(clientHeaders(headers, "proxying"), {
    appName: "wallet",
    appVersion: null,
    appPlatform: "mobile",
    userAgent: null,
    screeningAddr: "8.8.8.8",
  });
  assert.equal(clientHeaders({ "app-name": "w" }).appName, "w");
  const missing = thrown(() => clientHeaders([["App-Name", "w"]], "proxying"));
  assert.deepEqual([missing.status, missing.code], [400, "INVALID_REQUEST"]);
  const local = thrown(() => clientHeaders({ "App-Name": "w", Forwarded: "for=127.0.0.1" }, "proxying"));
  assert.equal(local.code, "INVALID_REQUEST");
  assert.equal(thrown(() => clientHeaders({})).status, 401);
});

test("status reconciliation and the text parsers", () => {
  assert.deepEqual(reconcileStatus({ status: "awaiting" }, [{ status: "expired", confirmations: 1 }]), {
    status: "inProgress",
    definitive: false,
  });
  assert.equal(swaproute.parseAmount("0012.50"), "12.5");
  const bad = thrown(() => swaproute.parseAmount("1,5"));
  assert.deepEqual([bad.code, bad.reason, bad.at, bad.found], ["INVALID_AMOUNT", "INVALID_CHARACTER", 1, ","]);
  assert.equal(swaproute.decimalFromJsonNumber("1e-7"), "0.0000001");
  assert.deepEqual(swaproute.parseChainId("eip155:1"), { namespace: "eip155", reference: "1" });
  const caip = thrown(() => swaproute.parseAssetType("eip155:1"));
  assert.deepEqual([caip.reason, caip.component], ["MISSING_SEPARATOR", "reference"]);
});

test("best answers the object the route's JSON parses to, key order included", () => {
  // The common route comes from the raw layer compactly (no JSON): the same
  // object as topRoutes' first (its JSON), ExactIn and ExactOut, sponsored
  // or not, ids with a backslash or outside ASCII.
  const sponsored = rate("a:spring", "BTC_ETH", 31, 0, 0.001, 10, { sponsoredByCampaignId: "spring" });
  const lists = [
    btcEth,
    [rate("x\\y", "BTC_ETH", 30, 0.01, 0.001, 10)],
    [rate("ünï😀", "BTC_ETH", 0.000001, 0, 0.001, 10)],
    [rate("t", "BTC_ETH", 30.000000001, 0.000000001, 0.001, 10)],
    [btcEth[0], sponsored],
  ];
  const requests = [
    { fromAmount: "0.5", now: NOW },
    { fromAmount: "1.00000001", now: NOW },
    { mode: "ExactOut", fromAmount: "0.5", toAmount: "14", now: NOW },
    { fromAmount: "0.5", now: NOW, campaigns: { spring: "5" } },
  ];
  let checked = 0;
  for (const list of lists) {
    for (const request of requests) {
      const top = topRoutes(list, request, 1);
      const [first] = top.routes;
      const best = bestRoute(list, request);
      // The best route's own key: the top 1's validUntil (its rate's expiry).
      assert.equal(best.validUntil, top.validUntil);
      first.validUntil = top.validUntil;
      assert.deepEqual(Object.entries(best), Object.entries(first), `${JSON.stringify(request)} ${list[0].id}`);
      checked++;
    }
  }
  assert.equal(checked, lists.length * requests.length);
  // 0.5 × 31 − 0 = 15.5 through the campaign. 1.00000001 × 30.000000001 =
  // 30.000000001 + 0.00000030000000001 = 30.00000030100000001, − 0.000000001.
  assert.equal(bestRoute([btcEth[0], sponsored], requests[3]).sponsoredByCampaignId, "spring");
  assert.equal(bestRoute(lists[3], requests[1]).netOutput, "30.00000030000000001");
});
