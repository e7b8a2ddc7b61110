// Issue 42 from JavaScript: the live payloads (tests/payloads, copied from
// ../shared/payloads) decoded, ranked in both modes (ExactOut with the
// capability assumed, ruling 4), the live order planned and verified, the
// deposit address checked (ruling 45), one bad value spoiling one rate
// (ruling 44). Expected values are worked out by hand in the comments.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import { Rates, SwaprouteError, bestRoute, estimateExactOut, planFixedOrder, selectRoutes, verifyOrder } from "../pkg/node.js";

const text = (name) => readFileSync(new URL(`../../../tests/payloads/${name}`, import.meta.url), "utf8");
const payload = (name) => JSON.parse(text(name));
// Before the live rates' earliest expiry (1791045258000).
const NOW = 1791045000000;

test("the live rates rank in ExactIn, and in ExactOut once the capability is assumed", () => {
  const rates = text("rates-response.json");
  // 0.5 × 611.8823407719563 − 0.00352118 = 305.93764920597815; the twins tie, the id decides.
  const best = bestRoute(rates, { fromAmount: "0.5", now: NOW });
  assert.equal(best.rateId, "5KXSc7Tvo@hBKqFYY@kv5Z(Jr3(J1T");
  assert.equal(best.netOutput, "305.93764920597815");
  assert.equal(best.exactOutAssumed, undefined);
  assert.throws(() => estimateExactOut(rates, { toAmount: "300", now: NOW }), (e) => e instanceof SwaprouteError && e.code === "UNSUPPORTED_SWAP_MODE");
  // (300 + 0.00352118) / 611.8823407719563 = 0.490296093…, rounded up to 8 places.
  const estimate = estimateExactOut(rates, { toAmount: "300", now: NOW, assumeExactOut: true });
  assert.equal(estimate.fromAmount, "0.49029610");
  assert.equal(estimate.exactOutAssumed, true);
  const held = Rates.from(rates);
  const assumed = held.assumeExactOut();
  try {
    assert.equal(assumed.exactOutAssumed, true);
    assert.equal(held.exactOutAssumed, false);
    const route = assumed.best({ mode: "ExactOut", fromAmount: "0.5", toAmount: "300", now: NOW });
    assert.equal(route.requiredInput, "0.49029610");
    assert.equal(route.exactOutAssumed, true);
  } finally {
    assumed.free();
    held.free();
  }
  // The legacy shape (no features, no campaign keys) ranks too: 1 × 0.08419270138853265 − 0.00041276.
  const legacy = bestRoute(text("rates-response-legacy.json"), { fromAmount: "1", now: 1750312845000 - 1 });
  assert.equal(legacy.netOutput, "0.08377994138853265");
});

test("one unrepresentable multiplier spoils its rate only (ruling 44)", () => {
  const rates = text("derived/rates-response-unheld-multiplier.json");
  const selection = selectRoutes(rates, { fromAmount: "0.5", now: NOW });
  assert.equal(selection.routes[0].rateId, "WDtkwtDDb!xHKas1&VOq$g6)YYZYn9");
  const bad = selection.rejected.find((r) => r.rateId === "5KXSc7Tvo@hBKqFYY@kv5Z(Jr3(J1T");
  assert.equal(bad.reason, "INVALID_RATE");
  const campaign = bestRoute(text("derived/rates-response-empty-campaign.json"), { fromAmount: "0.5", now: NOW });
  assert.equal(campaign.sponsoredByCampaignId, null);
});

test("the live order plans, verifies, and a deposit to the user's own address is refused (ruling 45)", () => {
  const body = payload("order-create-request.json");
  const created = payload("order-create-response.json");
  const rates = [
    {
      amount: { assetId: "USDT", value: 77.9 },
      expiry: 4102444800000,
      id: created.rateId,
      max: { assetId: "LTC", value: 100 },
      min: { assetId: "LTC", value: 0.1 },
      minerFee: { assetId: "USDT", value: 0.01 },
      pairId: "LTC_USDT",
      features: [],
    },
  ];
  const now = 1773221236204;
  // 1.25 × 77.9 − 0.01 = 97.365.
  const plan = planFixedOrder(rates, body, { now });
  assert.equal(plan.toAmount, "97.36500000");
  assert.equal(plan.addressesChecked, false);
  assert.equal(plan.exactOutAssumed, false);
  // The live 201 says inProgress: it verifies as created.
  assert.equal(verifyOrder(rates, body, created, { now }).ok, true);
  for (const [payIn, planned] of [
    [created.toAddress, "a deposit address, not the request's toAddress"],
    ["0x0000000000000000000000000000000000000000", "a deposit address, not a burn address"],
    ["1111111111111111111114oLvT2", "a deposit address, not a burn address"],
    ["!", "a deposit address, not text of no address format"],
  ]) {
    const got = verifyOrder(rates, body, { ...created, payInAddress: payIn }, { now });
    assert.deepEqual(got.mismatches, [{ field: "payInAddress", check: "depositAddress", planned, returned: payIn }], payIn);
  }
  // With the networks known, addresses are checked (the payloads' bech32 look-alikes fail their checksums).
  const checked = planFixedOrder(rates, { ...body, fromAddress: "ltc1qwkzh53vfnxzmunzdjs0fpd4njmtvj2jvcgvgrm" }, { now, networks: { from: "litecoin", to: "ethereum" } });
  assert.equal(checked.addressesChecked, true);
  // ExactOut: refused without the capability, planned with it: (97 + 0.01) / 77.9 = 1.24531450…, rounded up.
  const exactOut = { ...body, swapMode: "ExactOut", fromAmount: "1.26", toAmount: "97" };
  assert.throws(() => planFixedOrder(rates, exactOut, { now }), (e) => e.code === "UNSUPPORTED_SWAP_MODE");
  const assumed = planFixedOrder(rates, exactOut, { now, assumeExactOut: true });
  assert.equal(assumed.amount, "1.24531451");
  assert.equal(assumed.exactOutAssumed, true);
});
