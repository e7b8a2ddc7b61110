// Ruling 40 from JavaScript: verifyOrder / verifyFloatOrder and the price
// guard's options. Expected values are worked out by hand in the comments.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import { SwaprouteError, bestRoute, planFixedOrder, selectRoutes, verifyFloatOrder, verifyOrder } from "../pkg/node.js";

const payload = (name) => JSON.parse(readFileSync(new URL(`../../../tests/payloads/${name}`, import.meta.url), "utf8"));
const NOW = 1785000000000;
const LATER = 4102444800000;

const body = payload("order-create-request.json");
const live = { ...payload("order-create-response.json"), status: "awaiting" };
// 1.25 × 77.9 − 0.01 = 97.365; the bound is 98 × 0.98 = 96.04.
const rates = [
  {
    amount: { assetId: "USDT", value: 77.9 },
    expiry: LATER,
    id: live.rateId,
    max: { assetId: "LTC", value: 100 },
    min: { assetId: "LTC", value: 0.1 },
    minerFee: { assetId: "USDT", value: 0.01 },
    pairId: "LTC_USDT",
  },
];

test("the live order verifies; a tampered one names every field", () => {
  assert.deepEqual(verifyOrder(rates, body, live, { now: NOW }), {
    ok: true,
    mismatches: [],
    addressesChecked: false,
    exactOutAssumed: false,
  });
  const tampered = {
    ...live,
    toAddress: live.toAddress.replace("ea41", "e\u0430" + "41"),
    amount: { assetId: "LTC", value: "125" },
    toAmount: { assetId: "USDT", value: "1" },
    payInAddress: "",
  };
  const got = verifyOrder(rates, JSON.stringify(body), JSON.stringify(tampered), { now: NOW });
  assert.equal(got.ok, false);
  assert.deepEqual(
    got.mismatches.map((m) => m.field),
    ["amount", "toAddress", "toAmount", "payInAddress"],
  );
  assert.deepEqual(got.mismatches[2], { field: "toAmount", check: "atLeast", planned: "96.04", returned: "1" });
  // Ruling 45: the created one may be in progress (the live 201 is), never definitive.
  const later = { ...live, status: "inProgress" };
  assert.equal(verifyOrder(rates, body, later, { now: NOW, read: "fetched" }).ok, true);
  assert.equal(verifyOrder(rates, body, later, { now: NOW }).ok, true);
  assert.deepEqual(verifyOrder(rates, body, { ...live, status: "complete" }, { now: NOW }).mismatches, [
    { field: "status", check: "open", planned: "awaiting, inProgress, delayed or swapped", returned: "complete" },
  ]);
});

test("hostile inputs are errors, never crashes", () => {
  for (const [order, options] of [
    [{ ...live, pairId: "not a pair" }, { now: NOW }],
    [[], { now: NOW }],
    [live, { now: NOW, read: "later" }],
    [live, { now: NOW, extra: 1 }],
    [live, { now: NOW, priceGuard: { maxDeviationBps: -1 } }],
    [live, { now: NOW, priceGuard: { maxDeviationBps: 10, reference: "0" } }],
  ]) {
    assert.throws(() => verifyOrder(rates, body, order, options), SwaprouteError);
  }
  // Huge and empty values are mismatches.
  const huge = { ...live, toAddress: "x".repeat(100000), amount: { assetId: "LTC", value: "79228162514264337593543950335" } };
  assert.deepEqual(
    verifyOrder(rates, body, huge, { now: NOW }).mismatches.map((m) => m.field),
    ["amount", "toAddress"],
  );
});

test("a floating order: no rate, the quote's amount and the slippage bound", () => {
  const floatBody = payload("order-float-create-request.json");
  const quote = {
    id: "q-1",
    pairId: floatBody.pairId,
    fromAmount: { assetId: "USDCALGO", value: "25" },
    toAmount: { assetId: "USDCbasemainnetB5A52617", value: "24.7" },
    expiry: LATER,
  };
  const order = {
    id: "f-1",
    status: "awaiting",
    pairId: floatBody.pairId,
    rateId: "",
    amount: { assetId: "USDCALGO", value: "25" },
    toAmount: { assetId: "USDCbasemainnetB5A52617", value: "24.1178" },
    fromAddress: floatBody.fromAddress,
    toAddress: floatBody.toAddress.toLowerCase(),
    payInAddress: "ZW3ISEHZUHPO7OZGMKLKIIMKVICOUDRCERI454I3DB2BH52HGLSO67W754",
  };
  // 24.61 × 0.98 = 24.1178: at the bound.
  assert.deepEqual(verifyFloatOrder(quote, floatBody, order, { now: NOW }), {
    ok: true,
    mismatches: [],
    addressesChecked: false,
    exactOutAssumed: false,
  });
  // Ruling 45: the user's own address is no deposit address.
  assert.deepEqual(
    verifyFloatOrder(quote, floatBody, { ...order, payInAddress: floatBody.fromAddress }, { now: NOW }).mismatches,
    [{ field: "payInAddress", check: "depositAddress", planned: "a deposit address, not the request's fromAddress", returned: floatBody.fromAddress }],
  );
  const below = { ...order, toAmount: { assetId: "USDCbasemainnetB5A52617", value: "24.11779999" } };
  assert.deepEqual(verifyFloatOrder(quote, floatBody, below, { now: NOW }).mismatches.map((m) => m.field), ["toAmount"]);
});

test("the price guard in ranking and plans", () => {
  const rate = (id, m) => ({
    amount: { assetId: "ETH", value: m },
    expiry: LATER,
    id,
    max: { assetId: "BTC", value: 8 },
    min: { assetId: "BTC", value: 0.001 },
    minerFee: { assetId: "ETH", value: 0.0002 },
    pairId: "BTC_ETH",
  });
  const list = [rate("a", 33.1), rate("b", 33.2), rate("liar", 900000)];
  const request = { fromAmount: "0.5", now: NOW };
  assert.equal(bestRoute(list, request).rateId, "liar");
  // Median 33.2; |900000 − 33.2| × 10000 / 33.2 = 271074337.349…
  const guarded = { ...request, priceGuard: { maxDeviationBps: 100 } };
  assert.equal(bestRoute(list, guarded).rateId, "b");
  const selection = selectRoutes(list, guarded);
  assert.deepEqual(selection.rejected, [
    {
      rateId: "liar",
      reason: "PRICE_OUTLIER",
      limit: null,
      detail: "the multiplier 900000 deviates from the reference 33.2 by 271074337.35 bps, more than the 100 bps allowed",
      multiplier: "900000",
      reference: "33.2",
      deviationBps: "271074337.35",
      maxDeviationBps: 100,
    },
  ]);
  // The caller's reference; nothing left is PRICE_OUTLIER (502).
  const error = (() => {
    try {
      bestRoute(list, { ...request, priceGuard: { maxDeviationBps: 0, reference: "1" } });
    } catch (e) {
      return e;
    }
  })();
  assert.ok(error instanceof SwaprouteError);
  assert.equal(error.code, "PRICE_OUTLIER");
  assert.equal(error.status, 502);
  const planBody = { pairId: "BTC_ETH", fromAmount: "0.5", fromAddress: null, toAmount: "16.5", toAddress: "0x52908400098527886E0F7030069857D2E4169EE7" };
  assert.equal(planFixedOrder(list, planBody, { now: NOW }).rateId, "liar");
  assert.equal(planFixedOrder(list, planBody, { now: NOW, priceGuard: { maxDeviationBps: 100 } }).rateId, "b");
  for (const bad of [{ maxDeviationBps: 2 ** 32 }, { maxDeviationBps: 1.5 }, { maxDeviationBps: 1, reference: "-1" }, { reference: "33" }, { maxDeviationBps: 1, extra: 1 }]) {
    assert.throws(() => selectRoutes(list, { ...request, priceGuard: bad }), SwaprouteError, JSON.stringify(bad));
  }
  // Zero rates: as without the guard.
  assert.throws(() => bestRoute([], guarded), (e) => e.code === "INSUFFICIENT_LIQUIDITY");
});
