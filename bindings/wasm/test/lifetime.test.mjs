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

// validUntil on the answers themselves (ruling 50), by hand over RATES at
// 0.5 BTC: a 15.49 until 2000, b 15 until 3000, c 14.75 until 5000, d
// (min 1) cannot serve it but is live until 4000.
test("best, top, select, split and a chain carry validUntil", () => {
  const at = (now) => ({ fromAmount: "0.5", now });
  // best: a, until a expires.
  assert.deepEqual(swaproute.bestRoute(RATES, at(1000)), {
    rateId: "a", netOutput: "15.49", requiredInput: null, requiredInputLimits: null,
    sponsoredByCampaignId: null, validUntil: 2000,
  });
  // After a: b until 3000.
  assert.equal(swaproute.bestRoute(RATES, at(2000)).validUntil, 3000);
  // top 2 (a, b): until the first of them expires; top 3 (a, b, c) too.
  const top2 = swaproute.topRoutes(RATES, at(1000), 2);
  assert.deepEqual(top2.routes.map((r) => r.rateId), ["a", "b"]);
  assert.equal(top2.validUntil, 2000);
  // At 2500 the top 2 are b (3000) and c (5000): until 3000.
  assert.equal(swaproute.topRoutes(RATES, at(2500), 2).validUntil, 3000);
  // k = 0: no route shown; it answers as best does. Huge k: every route.
  assert.deepEqual(swaproute.topRoutes(RATES, at(2500), 0), { routes: [], validUntil: 3000 });
  assert.deepEqual(swaproute.topRoutes(RATES, at(3500), 2 ** 32), {
    routes: [{ rateId: "c", rank: undefined, netOutput: "14.75", requiredInput: null, requiredInputLimits: null, sponsoredByCampaignId: null }]
      .map(({ rank, ...r }) => r),
    validUntil: 5000,
  });
  // select lists every rate: it changes when any live one expires, d (4000) included.
  assert.equal(swaproute.selectRoutes(RATES, at(1000)).validUntil, 2000);
  assert.equal(swaproute.selectRoutes(RATES, at(3500)).validUntil, 4000);
  assert.equal(swaproute.selectRoutes(RATES, at(5000)).validUntil, null);
  // A split of 2.5 BTC (no rate takes more than 2): d its max 2 (×35) and
  // a the remaining 0.5 (×31), until a expires (d lives until 4000).
  const split = swaproute.splitRoute(RATES, { fromAmount: "2.5", now: 1000 });
  assert.deepEqual(split.split.legs.map((l) => l.rateId), ["d", "a"]);
  assert.equal(split.split.validUntil, 2000);
  assert.equal(split.validUntil, 2000);
  // The single route's lifetime when one serves.
  const single = swaproute.splitRoute(RATES, at(2500));
  assert.deepEqual([single.route.rateId, single.split, single.validUntil], ["b", null, 3000]);
});

test("a chain's validUntil is its first leg's expiry", () => {
  const eth = [rate("e", 50, 0, 1, 100, 2500)].map((r) => ({ ...r, pairId: "ETH_SOL",
    amount: { assetId: "SOL", value: 50 }, minerFee: { assetId: "SOL", value: 0 },
    min: { assetId: "ETH", value: 1 }, max: { assetId: "ETH", value: 100 } }));
  const request = { from: "BTC", to: "SOL", fromAmount: "0.5", now: 1000 };
  // Leg 1: a (15.49 ETH, until 2000); leg 2: e until 2500: the chain until 2000.
  const best = swaproute.bestChain([RATES, eth], request);
  assert.equal(best.legs[0].rateId, "a");
  assert.deepEqual([best.expiry, best.validUntil], [2000, 2000]);
  assert.equal(swaproute.selectChains([RATES, eth], request, 3).validUntil, 2000);
  // At 2600 leg 2 has expired: no chain, which holds until the last rate (c, 5000) expires.
  const none = (() => { try { swaproute.bestChain([RATES, eth], { ...request, now: 2600 }); } catch (e) { return e; } })();
  assert.ok(none instanceof swaproute.SwaprouteError);
  assert.equal(none.validUntil, 5000);
  assert.equal(swaproute.selectChains([RATES, eth], { ...request, now: 2600 }).validUntil, 5000);
});

test("no route: until when it holds, and null once every rate has expired", () => {
  const thrown = (f) => { try { f(); } catch (e) { return e; } assert.fail("no route expected"); };
  // 5 BTC is above every max: no route until the last rate (c) expires.
  const above = thrown(() => swaproute.bestRoute(RATES, { fromAmount: "5", now: 1000 }));
  assert.equal(above.code, "AMOUNT_ABOVE_LIMIT");
  assert.equal(above.validUntil, 5000);
  assert.equal(thrown(() => swaproute.topRoutes(RATES, { fromAmount: "5", now: 1000 }, 3)).validUntil, 5000);
  // 0.05 BTC is below every min: neither a route nor a split, until c expires.
  const below = thrown(() => swaproute.splitRoute(RATES, { fromAmount: "0.05", now: 1000 }));
  assert.deepEqual([below.code, below.validUntil], ["AMOUNT_BELOW_LIMIT", 5000]);
  // Every rate already expired at now: RATE_EXPIRED holds for good.
  const expired = thrown(() => swaproute.bestRoute(RATES, { fromAmount: "0.5", now: 5000 }));
  assert.equal(expired.code, "RATE_EXPIRED");
  assert.equal(expired.validUntil, null);
  assert.equal(thrown(() => swaproute.topRoutes(RATES, { fromAmount: "0.5", now: 9000 }, 0)).validUntil, null);
  assert.deepEqual(swaproute.selectRoutes(RATES, { fromAmount: "0.5", now: 5000 }).validUntil, null);
  // The service's body stays the body (validUntil is the package's key).
  assert.ok(!("validUntil" in above.body));
});

test("Rates#validUntil(request, 0) answers as top(request, 0) does", () => {
  const rates = swaproute.Rates.from(RATES);
  try {
    const request = { fromAmount: "0.5", now: 1000 };
    assert.deepEqual(rates.validUntil(request, 0), { validUntil: rates.top(request, 0).validUntil });
    assert.equal(rates.top(request, 0).validUntil, 2000);
  } finally {
    rates.free();
  }
});
