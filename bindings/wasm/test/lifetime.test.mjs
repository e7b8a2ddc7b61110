// Ruling 50 through the package (values by hand): the schedule, validUntil,
// a re-quote against the original plan, deposit outcomes.
import { test } from "node:test";
import assert from "node:assert/strict";

import * as swaproute from "../pkg/node.js";

const rate = (id, m, fee, min, max, expiry) => ({
  id, pairId: "BTC_ETH", expiry,
  amount: { assetId: "ETH", value: m }, minerFee: { assetId: "ETH", value: fee },
  min: { assetId: "BTC", value: min }, max: { assetId: "BTC", value: max },
});
// At 0.5 BTC: a 15.49 until 2000, b 15 until 3000, c 14.75 until 5000; d cannot serve 0.5.
const RATES = [
  rate("a", 31, 0.01, 0.1, 1, 2000), rate("b", 30, 0, 0.1, 1, 3000),
  rate("c", 29.5, 0, 0.1, 1, 5000), rate("d", 35, 0, 1, 2, 4000),
];
const BODY = {
  pairId: "BTC_ETH", fromAmount: "0.5", toAmount: "15.2", slippage: "2",
  fromAddress: null, toAddress: "0x52908400098527886E0F7030069857D2E4169EE7",
};

test("the schedule and validUntil", () => {
  const rates = swaproute.Rates.from(RATES);
  try {
    assert.deepEqual(rates.schedule({ fromAmount: "0.5", now: 1000 }), {
      validUntil: 2000,
      schedule: [
        { from: 1000, until: 2000, rateId: "a" },
        { from: 2000, until: 3000, rateId: "b" },
        { from: 3000, until: 5000, rateId: "c" },
      ],
    });
    assert.deepEqual(rates.validUntil({ fromAmount: "0.5", now: new Date(2500) }), { validUntil: 3000 });
    // The top 2 at 1000 (a, b) change when a expires.
    assert.deepEqual(rates.validUntil({ fromAmount: "0.5", now: 1000 }, 2), { validUntil: 2000 });
  } finally {
    rates.free();
  }
});

test("a re-quote is measured from the original plan", () => {
  const plan = swaproute.planFixedOrder(RATES, BODY, { now: 1000 });
  assert.equal(plan.toAmount, "15.49000000"); // the plan writes 8 places
  // 15.2 × 0.98 = 14.896 ≤ 15: within; (15.49 − 15) × 10⁴ / 15.49 = 316.33… → 316.34.
  const within = swaproute.requoteFixedOrder(RATES, BODY, plan, { now: 2500 });
  assert.deepEqual(within, { class: "WORSE_WITHIN", promised: "15.49", fresh: "15", lossBps: "316.34", reason: null });
  // Against the same original plan, not the last re-quote: 14.75 is beyond.
  const beyond = swaproute.requoteFixedOrder(RATES, BODY, plan, { now: 3500 });
  assert.equal(beyond.class, "WORSE_BEYOND");
  assert.equal(beyond.lossBps, "477.73");
  const gone = swaproute.requoteFixedOrder(RATES, BODY, plan, { now: 6000 });
  assert.equal(gone.class, "GONE");
  assert.equal(gone.reason.code, "RATE_EXPIRED");
});

test("deposit outcomes", () => {
  const at = (amount, observedAt) => swaproute.depositOutcome(RATES, BODY, { amount, observedAt }, { now: 1000 });
  assert.deepEqual(at("0.5", 1500), { class: "COMPLETES", expectedOutput: "15.49", limit: null, expiry: 2000 });
  assert.equal(at("0.05", 1500).limit, "0.1");
  assert.equal(at("2", 1500).class, "ABOVE_MAX");
  assert.equal(at("0.6", 1500).expectedOutput, "18.59");
  assert.equal(at("0.5", 2000).class, "AFTER_EXPIRY");
});
