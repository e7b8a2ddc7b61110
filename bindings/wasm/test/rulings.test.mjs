// Rulings 17, 33 and 38 as a wallet meets them in JavaScript: the slippage
// of an order plan, the amounts that work, the economic floors, and the cap
// on rates. Every expected value is worked out by hand in the comments.
import { test } from "node:test";
import assert from "node:assert/strict";

import {
  MAX_RATES,
  Rates,
  SwaprouteError,
  bestChain,
  bestRoute,
  estimateExactOut,
  feasibleAmounts,
  planFixedOrder,
  selectChains,
  selectRoutes,
} from "../pkg/node.js";

const NOW = 1700000000000;

// ×10 ETH per BTC, fee 0.5 ETH, limits [0.01, 5] BTC.
const RATE = {
  amount: { assetId: "ETH", value: 10 },
  expiry: NOW + 60000,
  id: "r",
  max: { assetId: "BTC", value: 5 },
  min: { assetId: "BTC", value: 0.01 },
  minerFee: { assetId: "ETH", value: 0.5 },
  pairId: "BTC_ETH",
  features: ["exactOut"],
};
const RATES = [RATE];

function body(extra) {
  return {
    pairId: "BTC_ETH",
    fromAddress: null,
    toAddress: "0x52908400098527886E0F7030069857D2E4169EE7",
    ...extra,
  };
}

function thrown(f) {
  try {
    f();
  } catch (error) {
    assert.ok(error instanceof SwaprouteError, `a SwaprouteError, got ${error}`);
    return error;
  }
  assert.fail("expected a SwaprouteError");
}

test("ruling 33, ExactIn: a promise below toAmount × (100 − slippage)/100 is SLIPPAGE_EXCEEDED with bound and available", () => {
  // 1 × 10 − 0.5 = 9.5 promised; toAmount 10 at slippage 0: bound 10.
  const error = thrown(() => planFixedOrder(RATES, body({ fromAmount: "1", toAmount: "10", slippage: 0 }), { now: NOW }));
  assert.equal(error.status, 409);
  assert.equal(error.code, "SLIPPAGE_EXCEEDED");
  assert.equal(typeof error.bound, "string");
  assert.equal(Number(error.bound), 10);
  assert.equal(Number(error.available), 9.5);
  // What a server answers with carries them too.
  assert.deepEqual(Object.keys(error.body).sort(), ["available", "bound", "code", "details", "status"]);
  // Slippage 5: bound 10 × 0.95 = 9.5, met exactly.
  const plan = planFixedOrder(RATES, body({ fromAmount: "1", toAmount: "10", slippage: 5 }), { now: NOW });
  assert.deepEqual(
    { rateId: plan.rateId, amount: plan.amount, toAmount: Number(plan.toAmount), amountLimits: plan.amountLimits },
    { rateId: "r", amount: "1", toAmount: 9.5, amountLimits: null },
  );
  // Slippage 4.99: bound 10 × 0.9501 = 9.501 > 9.5.
  const near = thrown(() => planFixedOrder(RATES, body({ fromAmount: "1", toAmount: "10", slippage: "4.99" }), { now: NOW }));
  assert.equal(near.bound, "9.501");
});

test("ruling 33, ExactOut: an order amount above fromAmount × (100 + slippage)/100 is refused", () => {
  // (9.5 + 0.5) / 10 = 1 BTC needed; estimate 0.98 at 2%: at most 0.9996.
  const exactOut = { fromAmount: "0.98", toAmount: "9.5", swapMode: "ExactOut" };
  const error = thrown(() => planFixedOrder(RATES, body(exactOut), { now: NOW }));
  assert.equal(error.code, "SLIPPAGE_EXCEEDED");
  assert.equal(error.bound, "0.9996");
  assert.equal(Number(error.available), 1);
  // At 3%: 0.98 × 1.03 = 1.0094 ≥ 1.
  const plan = planFixedOrder(RATES, body({ ...exactOut, slippage: 3 }), { now: NOW });
  assert.equal(Number(plan.amount), 1);
  assert.equal(plan.toAmount, "9.5");
  assert.deepEqual(plan.amountLimits, { status: "within" });
});

test("plans are strict by default (ruling 34), decimals round the order's amounts, options are checked", () => {
  // ExactOut 49.5 ETH needs (49.5 + 0.5) / 10 = 5 BTC: at the max, within.
  const atMax = { fromAmount: "5", toAmount: "49.5", swapMode: "ExactOut" };
  assert.equal(Number(planFixedOrder(RATES, body(atMax), { now: NOW }).amount), 5);
  // 49.6 needs 5.01 BTC, above the max 5: no order.
  const above = thrown(() => planFixedOrder(RATES, body({ ...atMax, toAmount: "49.6" }), { now: NOW }));
  assert.equal(above.code, "AMOUNT_ABOVE_LIMIT");
  // The largest toAmount that works is 49.5, named with its rate.
  assert.equal(above.requiredInput.above.rateId, "r");
  assert.equal(Number(above.requiredInput.above.toAmount), 49.5);
  // ExactIn with 2 to-decimals: 0.33333333 × 10 − 0.5 = 2.8333333 → 2.83 promised.
  const plan = planFixedOrder(RATES, body({ fromAmount: "0.33333333", toAmount: "2.83" }), {
    now: NOW,
    decimals: { from: 8, to: 2 },
  });
  assert.equal(plan.toAmount, "2.83");
  assert.equal(thrown(() => planFixedOrder(RATES, body({ fromAmount: "1", toAmount: "9" }), { now: NOW, limitPolicy: "lax" })).field, "limitPolicy");
  assert.equal(thrown(() => planFixedOrder(RATES, body({ fromAmount: "1", toAmount: "9" }), { now: NOW, slipage: 1 })).field, "slipage");
  // A body problem is the order body's error, every problem listed.
  const bad = thrown(() => planFixedOrder(RATES, body({ fromAmount: "0", toAmount: "9" }), { now: NOW }));
  assert.equal(bad.field, "fromAmount");
});

test("ruling 38: the amounts that work, the best under a balance, and the floors", () => {
  // 10x − 0.5 > 0 from x = 0.05000001 (8 places); up to the max 5.
  const report = feasibleAmounts(RATES, { now: NOW, spendable: "1.5" });
  assert.deepEqual(report, {
    mode: "ExactIn",
    min: { amount: "0.05000001", rateId: "r" },
    max: { amount: "5.00000000", rateId: "r" },
    ranges: [{ from: "0.05000001", to: "5.00000000" }],
    maxWithin: { amount: "1.50000000", rateId: "r" },
    // 1.5 × 10 − 0.5
    bestWithin: { amount: "1.50000000", rateId: "r", netOutput: "14.5" },
  });
  // A balance of 0 holds nothing that works: as without one.
  assert.equal(feasibleAmounts(RATES, { now: NOW, spendable: "0" }).maxWithin, null);
  // Dust 1: 10x − 0.5 ≥ 1 from x = 0.15.
  assert.equal(feasibleAmounts(RATES, { now: NOW, floors: { dust: "1" } }).min.amount, "0.15000000");
  // ExactOut with 2 to-decimals: the largest output is 10 × 5 − 0.5 = 49.5.
  const out = feasibleAmounts(RATES, { mode: "ExactOut", now: NOW, decimals: { from: 8, to: 2 } });
  assert.equal(out.max.amount, "49.50");
  assert.equal(thrown(() => feasibleAmounts(RATES, { now: NOW, spendable: "-1" })).field, "spendable");
  assert.equal(thrown(() => feasibleAmounts(RATES, { now: NOW, floors: { dust: 1 } })).field, "floors.dust");
  assert.equal(thrown(() => feasibleAmounts(RATES, { now: NOW, decimals: { from: 256, to: 2 } })).field, "decimals.from");
});

test("ruling 38: the floors reject routes in every ranking call, with their own reasons", () => {
  const at = (fromAmount, floors) => selectRoutes(RATES, { fromAmount, now: NOW, floors }).rejected.map((r) => r.reason);
  // 0.1 × 10 − 0.5 = 0.5: below dust 1; below 3 × 0.5 = 1.5.
  assert.deepEqual(at("0.1", { dust: "1" }), ["BELOW_DUST"]);
  assert.deepEqual(at("0.1", { feeMultiple: "3" }), ["FEE_TOO_LARGE"]);
  assert.deepEqual(at("0.2", { feeMultiple: "3" }), []); // 1.5 ≥ 1.5
  // 0.5 × 10000 = 5000 > 100 × 1 × 10 = 1000; at 5 BTC: 5000 ≤ 5000.
  assert.deepEqual(at("1", { maxFeeShareBps: 100 }), ["FEE_SHARE_TOO_LARGE"]);
  assert.deepEqual(at("5", { maxFeeShareBps: 100 }), []);
  // Nothing left to pay out: "no route" is INSUFFICIENT_LIQUIDITY (rule 10).
  const error = thrown(() => bestRoute(RATES, { fromAmount: "0.1", now: NOW, floors: { dust: "1" } }));
  assert.equal(error.code, "INSUFFICIENT_LIQUIDITY");
  // Unknown floors and null are refused, not ignored.
  assert.equal(thrown(() => bestRoute(RATES, { fromAmount: "1", now: NOW, floors: { dusty: "1" } })).code, "INVALID_REQUEST");
  assert.equal(thrown(() => bestRoute(RATES, { fromAmount: "1", now: NOW, floors: null })).field, "floors");
});

test("ruling 38: 'no route' names the floor and the amount that works, in every selection", () => {
  // 0.1 × 10 − 0.5 = 0.5 ETH, under a dust of 1: the floor named with its
  // numbers; 10x − 0.5 ≥ 1 from x = 0.15.
  const error = thrown(() => bestRoute(RATES, { fromAmount: "0.1", now: NOW, floors: { dust: "1" } }));
  assert.equal(error.floor, "BELOW_DUST");
  assert.deepEqual(error.working, { field: "fromAmount", amount: "0.15000000", asset: "BTC" });
  assert.match(error.details, /BELOW_DUST \(net output 0\.5 is below the dust floor 1\)/);
  // ExactOut: 100 ETH needs 100.5 / 10 = 10.05 BTC, above the max 5; the
  // largest toAmount that works is 5 × 10 − 0.5 = 49.5 ETH.
  const above = thrown(() => estimateExactOut(RATES, { toAmount: "100", now: NOW }));
  assert.equal(above.code, "AMOUNT_ABOVE_LIMIT");
  assert.deepEqual(above.working, { field: "toAmount", amount: "49.50000000", asset: "ETH" });
  // The estimator holds each rate to the floors at its required input:
  // 9.5 ETH needs 1 BTC, net 9.5 < 20 × 0.5 = 10. The order amount must
  // reach 1.05 BTC (net 10): ceil8((y + 0.5) / 10) ≥ 1.05 once y >
  // 1.04999999 × 10 − 0.5 = 9.9999999, so 9.99999991 ETH; 10 needs 1.05.
  const held = thrown(() => estimateExactOut(RATES, { toAmount: "9.5", now: NOW, floors: { feeMultiple: "20" } }));
  assert.equal(held.floor, "FEE_TOO_LARGE");
  assert.deepEqual(held.working, { field: "toAmount", amount: "9.99999991", asset: "ETH" });
  assert.equal(estimateExactOut(RATES, { toAmount: "10", now: NOW, floors: { feeMultiple: "20" } }).fromAmount, "1.05000000");
  // Chains: BTC → ETH → SOL, ETH_SOL ×50 fee 0.1 SOL. 1 BTC → 9.5 ETH →
  // 474.9 SOL. A dust of 475 SOL holds the last leg only.
  const ETH_SOL = { ...RATE, id: "s", pairId: "ETH_SOL", amount: { assetId: "SOL", value: 50 },
    minerFee: { assetId: "SOL", value: 0.1 }, min: { assetId: "ETH", value: 0.01 }, max: { assetId: "ETH", value: 1000 } };
  const chain = { from: "BTC", to: "SOL", fromAmount: "1", now: NOW };
  assert.equal(bestChain([RATES, [ETH_SOL]], chain).finalOutput, "474.9");
  assert.equal(bestChain([RATES, [ETH_SOL]], { ...chain, floors: { dust: "474.9" } }).finalOutput, "474.9");
  const dusty = selectChains([RATES, [ETH_SOL]], { ...chain, floors: { dust: "475" } }, 5);
  assert.deepEqual(dusty.rejectedCounts, { BELOW_DUST: 1 });
  // A fee multiple of 20 refuses the first leg (9.5 < 10): the first leg's
  // "no route", naming the floor (a chain names no amount that works).
  const first = thrown(() => bestChain([RATES, [ETH_SOL]], { ...chain, floors: { feeMultiple: "20" } }));
  assert.equal(first.code, "INSUFFICIENT_LIQUIDITY");
  assert.equal(first.floor, "FEE_TOO_LARGE");
  assert.equal(first.working, undefined);
});

test("ruling 17: more than MAX_RATES rates are refused before any is written or read", () => {
  assert.equal(MAX_RATES, 65536);
  // Were the array serialized, the first rate's toJSON would throw.
  const poisoned = { toJSON() { throw new Error("serialized"); } };
  const many = new Array(MAX_RATES + 1).fill(RATE);
  many[0] = poisoned;
  for (const f of [() => Rates.from(many), () => selectRoutes(many, { fromAmount: "1", now: NOW })]) {
    const error = thrown(f);
    assert.equal(error.reason, "TOO_MANY");
    assert.match(error.details, /^rates: 65537 rates is more than the 65536/);
  }
  const chains = thrown(() => selectChains([RATES, many], { from: "BTC", to: "ETH", fromAmount: "1", now: NOW }));
  assert.equal(chains.reason, "TOO_MANY");
  assert.match(chains.details, /^responses\[1\]: 65537 rates/);
  // As JSON text: refused at the 65,537th rate, whatever follows it
  // (here text that is not even JSON).
  const ids = Array.from({ length: MAX_RATES + 1 }, (_, i) => JSON.stringify({ ...RATE, id: `r${i}` }));
  const text = `[${ids.join(",")},@@@`;
  assert.equal(thrown(() => Rates.from(text)).reason, "TOO_MANY");
  const chainText = `[[${ids.join(",")},@@@`;
  assert.equal(thrown(() => selectChains(chainText, { from: "BTC", to: "ETH", fromAmount: "1", now: NOW })).reason, "TOO_MANY");
});
