// Rulings 41 and 42 as a wallet meets them in JavaScript: the price guard
// holds every question (the ranking, the estimate, the amounts that work,
// splits, chains), with one median over the rates that can serve some
// amount. Every expected value is worked out by hand in the comments.
import { test } from "node:test";
import assert from "node:assert/strict";

import {
  bestChain,
  bestRoute,
  estimateExactOut,
  feasibleAmounts,
  selectRoutes,
  splitRoute,
} from "../pkg/node.js";

const NOW = 1785000000000;

function rate(id, m, { fee = 0, min = 0.001, max = 8, pairId = "BTC_ETH", exactOut = true } = {}) {
  const [from, to] = pairId.split("_");
  return {
    amount: { assetId: to, value: m },
    expiry: 4102444800000,
    id,
    max: { assetId: from, value: max },
    min: { assetId: from, value: min },
    minerFee: { assetId: to, value: fee },
    pairId,
    features: exactOut ? ["exactOut"] : [],
  };
}

const GUARD = { maxDeviationBps: 500 };

test("ruling 42: rates that can serve nothing have no vote", () => {
  // Voters 33, 33, 33, 330 (the decoys' fee 1000 exceeds 330 × 1, all they
  // can take): median 33, the ×330 outlier refused.
  const rates = [
    rate("h1", 33, { min: 0, max: 10 }),
    rate("h2", 33, { fee: 0.001, min: 0, max: 10 }),
    rate("h3", 33, { fee: 0.002, min: 0, max: 10 }),
    rate("outlier", 330, { min: 0, max: 10 }),
    rate("d1", 330, { fee: 1000, min: 0.1, max: 1 }),
    rate("d2", 330, { fee: 1000, min: 0.1, max: 1 }),
    rate("d3", 330, { fee: 1000, min: 0.1, max: 1 }),
  ];
  const request = { fromAmount: "1", now: NOW, priceGuard: GUARD };
  assert.equal(bestRoute(rates, request).rateId, "h1");
  const outlier = selectRoutes(rates, request).rejected.find((r) => r.rateId === "outlier");
  assert.equal(outlier.reason, "PRICE_OUTLIER");
  assert.equal(outlier.reference, "33");
});

test("ruling 41: the estimate, the amounts that work, splits and chains apply the guard", () => {
  // a ×33, b ×33.1, liar ×900000 (min 0.1 for the liar, 1 for the others).
  const rates = [
    rate("a", 33, { min: 1 }),
    rate("b", 33.1, { min: 1 }),
    rate("liar", 900000, { min: 0.1 }),
  ];
  // ExactOut 40 ETH with a liar whose min admits its required input,
  // ceil8(40 / 900000) = 0.00004445: unguarded it wins; guarded (median
  // 33.1) b does, with ceil8(40 / 33.1) = 1.20845922.
  const cheap = [rates[0], rates[1], rate("liar", 900000, { min: 0.00001 })];
  assert.equal(estimateExactOut(cheap, { toAmount: "40", now: NOW }).rateId, "liar");
  const estimate = estimateExactOut(cheap, { toAmount: "40", now: NOW, priceGuard: GUARD });
  assert.deepEqual(estimate, { fromAmount: "1.20845922", rateId: "b" });
  // The amounts that work start at 1 (b's min), not at the liar's 0.1.
  const amounts = feasibleAmounts(rates, { now: NOW, priceGuard: GUARD });
  assert.deepEqual(amounts.min, { amount: "1.00000000", rateId: "b" });
  // At 0.1 only the liar accepts: PRICE_OUTLIER, naming 1 as the amount that works.
  let error;
  try {
    bestRoute(rates, { fromAmount: "0.1", now: NOW, priceGuard: GUARD });
  } catch (e) {
    error = e;
  }
  assert.equal(error.code, "PRICE_OUTLIER");
  assert.equal(error.working.amount, "1.00000000");
  // A split never takes the refused rate: honest ×33 (max 3) and ×32 (max
  // 3, 303 bps from 33) split 5 as 3 + 2 = 99 + 64 = 163.
  const split = splitRoute(
    [rate("honest", 33, { min: 0, max: 3 }), rate("second", 32, { min: 0, max: 3 }), rate("liar", 330, { min: 0, max: 100 })],
    { fromAmount: "5", now: NOW, priceGuard: { maxDeviationBps: 500, reference: "33" } },
  );
  assert.deepEqual(
    split.split.legs.map((l) => [l.rateId, l.fromAmount]),
    [["honest", "3.00000000"], ["second", "2.00000000"]],
  );
  // A chain's leg uses its own pair's median: through ETH, BTC→ETH's liar is
  // refused, so the chain goes through b (33.1) then ETH→SOL ×10.
  const chain = bestChain(
    [rates, [rate("s1", 10, { pairId: "ETH_SOL", max: 1000 }), rate("s2", 10.1, { pairId: "ETH_SOL", max: 1000 })]],
    { from: "BTC", to: "SOL", fromAmount: "2", now: NOW, priceGuard: GUARD },
  );
  // 2 × 33.1 = 66.2 ETH; 66.2 × 10.1 = 668.62 SOL.
  assert.deepEqual(chain.legs.map((l) => l.rateId), ["b", "s2"]);
  assert.equal(chain.legs[1].output, "668.62");
});
